package io.hpcscale.agent.pbs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An OpenPBS server in miniature behind {@link StandInPbs}, behaving as the real OpenPBS 23.06 of
 * ../shared/notes/pbs-as-it-really-behaves.md does, and printing its state in that server's format with the real
 * outputs of {@code fixtures/pbs/real} as templates. Nodes are hosts whose "VMs" are files a command provider's
 * scripts create and delete; a node's mom is up while its VM runs.
 *
 * <p>What it reproduces, each as the note describes it:
 * <ul>
 *   <li>jobs of {@code select} chunks ({@code 2:ncpus=1:mem=512mb}) placed {@code free}, {@code pack},
 *       {@code scatter} or {@code excl} ({@code place=excl} makes the node {@code job-exclusive}: it may show
 *       unused CPUs, and no other job is placed there), several chunks per node ({@code cn003/0+cn003/1}), arrays
 *       (parent {@code B} with {@code array_state_count} as a string, subjobs {@code 8[1].vm} with
 *       {@code array_id}/{@code array_index} only once they run), held ({@code H}) and waiting ({@code W}) jobs;</li>
 *   <li>a suspended job ({@code S}) frees its node in pbsnodes: the node shows {@code free}, no {@code jobs},
 *       nothing assigned, while the job's {@code exec_host} still names it;</li>
 *   <li>a job started in the last turn is in PRERUN (substate 41); a server restart then brings it back running
 *       but no longer listed on its node, and the node is offered to other jobs;</li>
 *   <li>a restart drops every node comment (offline stays), fails every command while the server is down, and
 *       shows every node {@code state-unknown,down} until the moms report again ({@link #settle()});</li>
 *   <li>a node whose mom went away is {@code down} with the server's comment {@code node down: communication
 *       closed}, unless it has a comment of its own.</li>
 * </ul>
 * A node's VM stopped while any job's {@code exec_host} names it is recorded as a violation: hpcscale must never
 * stop such a node.
 */
final class StandInPbsServer {
    static final String SERVER = "pbsserver";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter PBS_TIME = DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy",
            Locale.ROOT).withZone(ZoneOffset.UTC);

    /** One host with its own mom. */
    record NodeSpec(String name, String queue, int ncpus, long memKb, int ngpus) {
    }

    /** One chunk of a job's select: {@code count} of {@code ncpus}, {@code memKb}, {@code ngpus}. */
    record Chunk(int count, int ncpus, long memKb, int ngpus) {
    }

    /** What {@code qsub} is given: the select's chunks, {@code place}, an array size, a hold or a start time. */
    record Submission(String name, String queue, List<Chunk> select, String place, int arraySize, boolean held,
            Instant startAfter) {
        static Submission of(String queue, String select, String place) {
            List<Chunk> chunks = new ArrayList<>();
            for (String part : select.split("\\+")) {
                String[] fields = part.split(":");
                int count = Integer.parseInt(fields[0]);
                int ncpus = 1;
                long memKb = 0;
                int ngpus = 0;
                for (int i = 1; i < fields.length; i++) {
                    String[] kv = fields[i].split("=");
                    switch (kv[0]) {
                        case "ncpus" -> ncpus = Integer.parseInt(kv[1]);
                        case "mem" -> memKb = kilobytes(kv[1]);
                        case "ngpus" -> ngpus = Integer.parseInt(kv[1]);
                        default -> throw new IllegalArgumentException(kv[0]);
                    }
                }
                chunks.add(new Chunk(count, ncpus, memKb, ngpus));
            }
            return new Submission("e2e", queue, chunks, place, 0, false, null);
        }

        Submission asArray(int size) {
            return new Submission(name, queue, select, place, size, held, startAfter);
        }

        Submission onHold() {
            return new Submission(name, queue, select, place, arraySize, true, startAfter);
        }

        Submission waitingUntil(Instant at) {
            return new Submission(name, queue, select, place, arraySize, held, at);
        }
    }

    /** Where one chunk of a running job is: its node and the slot index PBS prints in {@code exec_host}. */
    private record Placed(String node, int slot, Chunk chunk) {
    }

    private static final class Job {
        final String id;
        final Submission spec;
        final Instant queuedAt;
        String state;
        int substate;
        boolean listedOnNodes = true;
        final List<Placed> placed = new ArrayList<>();
        final List<String> subjobs = new ArrayList<>();
        String parent;
        int arrayIndex;

        Job(String id, Submission spec, Instant queuedAt, String state) {
            this.id = id;
            this.spec = spec;
            this.queuedAt = queuedAt;
            this.state = state;
            this.substate = switch (state) {
                case "H" -> 20;
                case "W" -> 30;
                default -> 10;
            };
        }

        boolean holdsNodes() {
            return !placed.isEmpty();
        }

        Set<String> hosts() {
            Set<String> hosts = new LinkedHashSet<>();
            placed.forEach(p -> hosts.add(p.node()));
            return hosts;
        }

        boolean exclusive() {
            return spec.place().contains("excl");
        }
    }

    private final StandInPbs pbs;
    private final Path power;
    private final Map<String, NodeSpec> nodes = new LinkedHashMap<>();
    private final Map<String, Job> jobs = new LinkedHashMap<>();
    private final Map<String, Long> lastUsed = new TreeMap<>();
    private final List<String> violations = new ArrayList<>();
    private int nextJob = 100;
    private boolean settling;

    /** Nodes of 4 CPUs and 8 GB in queue {@code workq}, for jobs that take one whole node each ({@link #submit()}). */
    static StandInPbsServer wholeNodes(StandInPbs pbs, Path power, List<String> names) throws IOException {
        return new StandInPbsServer(pbs, power, names.stream().map(n -> new NodeSpec(n, "workq", 4, 8_192_000, 0))
                .toList());
    }

    StandInPbsServer(StandInPbs pbs, Path power, List<NodeSpec> specs) throws IOException {
        this.pbs = pbs;
        this.power = Files.createDirectories(power);
        specs.forEach(n -> nodes.put(n.name(), n));
        pbs.qstatPrints("server-jobs.json");
        tick();
    }

    /** The command provider's list, start and stop programs: a node's VM runs while its file exists. */
    Map<String, Path> powerCommands() throws IOException {
        Map<String, Path> commands = new LinkedHashMap<>();
        commands.put("list", script("vm-list", "for n in " + String.join(" ", nodes.keySet()) + "; do\n"
                + "  if [ -e \"$d/$n\" ]; then echo \"$n $n running\"; else echo \"$n $n stopped\"; fi\n"
                + "done\n"));
        commands.put("start", script("vm-start", "touch \"$d/$1\"\n"
                + "printf '%s start %s\\n' \"$(date +%s.%N)\" \"$1\" >> \"$d/power.log\"\n"));
        commands.put("stop", script("vm-stop", "rm -f \"$d/$1\"\n"
                + "printf '%s stop %s\\n' \"$(date +%s.%N)\" \"$1\" >> \"$d/power.log\"\n"));
        return commands;
    }

    private Path script(String name, String body) throws IOException {
        Path file = power.getParent().resolve(name);
        Files.writeString(file, "#!/bin/sh\nd='" + power + "'\n" + body);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    /** Lines of the power log: "{epoch} start|stop {node}". */
    List<String[]> powerLog() throws IOException {
        Path log = power.resolve("power.log");
        List<String[]> entries = new ArrayList<>();
        if (Files.exists(log)) {
            for (String line : Files.readAllLines(log)) {
                entries.add(line.strip().split("\\s+"));
            }
        }
        return entries;
    }

    /** Starts the node's VM without a scaler, as if it had been running. */
    void powerOn(String node) throws IOException {
        Files.writeString(power.resolve(node), "");
    }

    /** A job that takes one whole node of queue {@code workq}, exclusively. */
    synchronized String submit() throws IOException {
        return submit(Submission.of("workq", "1:ncpus=4:mem=4gb", "excl"));
    }

    synchronized String submit(Submission spec) throws IOException {
        String id = (nextJob++) + (spec.arraySize() > 0 ? "[]" : "") + "." + SERVER;
        Instant now = Instant.now();
        String state = spec.held() ? "H" : spec.startAfter() != null ? "W" : "Q";
        Job job = new Job(id, spec, now, spec.arraySize() > 0 ? "Q" : state);
        jobs.put(id, job);
        for (int i = 1; i <= spec.arraySize(); i++) {
            String subId = id.replace("[]", "[" + i + "]");
            Job sub = new Job(subId, spec, now, state);
            sub.parent = id;
            sub.arrayIndex = i;
            job.subjobs.add(subId);
            jobs.put(subId, sub);
        }
        render();
        return id;
    }

    synchronized boolean running(String id) {
        Job job = jobs.get(id);
        return job != null && job.state.equals("R");
    }

    synchronized String state(String id) {
        Job job = jobs.get(id);
        return job == null ? "F" : job.state;
    }

    /** {@code qsig -s suspend}: the job keeps its nodes, which pbsnodes then shows free and empty. */
    synchronized void suspend(String id) throws IOException {
        Job job = jobs.get(id);
        job.state = "S";
        job.substate = 43;
        render();
    }

    /** {@code qsig -s resume}. */
    synchronized void resume(String id) throws IOException {
        Job job = jobs.get(id);
        job.state = "R";
        job.substate = 42;
        render();
    }

    /** The job ends, as if it finished. */
    synchronized void finish(String id) throws IOException {
        Job job = jobs.remove(id);
        long now = Instant.now().getEpochSecond();
        job.hosts().forEach(h -> lastUsed.put(h, now));
        if (job.parent != null && jobs.get(job.parent).subjobs.stream().noneMatch(jobs::containsKey)) {
            jobs.remove(job.parent);
        }
        render();
    }

    /** Ends every job, as if each finished. */
    synchronized void endAll() throws IOException {
        for (String id : List.copyOf(jobs.keySet())) {
            if (jobs.containsKey(id) && jobs.get(id).subjobs.isEmpty()) {
                finish(id);
            }
        }
    }

    /**
     * pbs_server stops ({@code qterm -t quick}): every command fails until {@link #serverStarts()}. Jobs in PRERUN
     * will come back running but unlisted on their nodes.
     */
    synchronized void serverStops() throws IOException {
        pbs.serverDown(true);
        for (Job job : jobs.values()) {
            if (job.substate == 41) {
                job.listedOnNodes = false;
                job.substate = 42;
            }
        }
    }

    /** pbs_server is back: node comments are gone, offline marks stay, nodes are state-unknown until settled. */
    synchronized void serverStarts() throws IOException {
        pbs.dropComments();
        settling = true;
        pbs.serverDown(false);
        render();
    }

    /** The moms have reported to the restarted server. */
    synchronized void settle() throws IOException {
        settling = false;
        render();
    }

    synchronized List<String> violations() {
        return List.copyOf(violations);
    }

    /** One turn of the server: notice VMs that went away, start what can start, print the new state. */
    synchronized void tick() throws IOException {
        for (Job job : jobs.values()) {
            for (String host : job.hosts()) {
                if (!up(host)) {
                    violations.add(host + " was stopped while job " + job.id + " (" + job.state + ") held it");
                }
            }
            if (job.substate == 41) {
                job.substate = 42;
            }
        }
        jobs.values().removeIf(job -> job.hosts().stream().anyMatch(h -> !up(h)));
        if (!settling && !Files.exists(pbs.directory().resolve("server.down"))) {
            schedule();
        }
        render();
    }

    private void schedule() throws IOException {
        Instant now = Instant.now();
        for (Job job : jobs.values()) {
            if (job.state.equals("W") && !job.spec.startAfter().isAfter(now)) {
                job.state = "Q";
                job.substate = 10;
            }
            if (!job.state.equals("Q") || !job.subjobs.isEmpty()) {
                continue;
            }
            List<Placed> placement = place(job);
            if (placement != null) {
                job.placed.addAll(placement);
                job.state = "R";
                job.substate = 41;
            }
        }
    }

    /** Where the job's chunks go now, or null when they do not all fit. */
    private List<Placed> place(Job job) throws IOException {
        Map<String, int[]> free = new LinkedHashMap<>();
        for (NodeSpec node : nodes.values()) {
            if (node.queue().equals(job.spec.queue()) && up(node.name()) && !pbs.offline(node.name())
                    && !exclusivelyHeld(node.name()) && (!job.exclusive() || assigned(node.name())[0] == 0)) {
                int[] used = assigned(node.name());
                free.put(node.name(), new int[] {node.ncpus() - used[0], (int) ((node.memKb() - used[1]) / 1024),
                        node.ngpus() - used[2], 0});
            }
        }
        List<Placed> placed = new ArrayList<>();
        Set<String> usedNodes = new LinkedHashSet<>();
        boolean scatter = job.spec.place().startsWith("scatter") || job.spec.place().contains("excl");
        boolean pack = job.spec.place().startsWith("pack");
        for (Chunk chunk : job.spec.select()) {
            for (int i = 0; i < chunk.count(); i++) {
                String chosen = null;
                for (Map.Entry<String, int[]> node : free.entrySet()) {
                    int[] room = node.getValue();
                    boolean allowed = scatter ? !usedNodes.contains(node.getKey())
                            : !pack || usedNodes.isEmpty() || usedNodes.contains(node.getKey());
                    if (allowed && room[0] >= chunk.ncpus() && room[1] >= chunk.memKb() / 1024
                            && room[2] >= chunk.ngpus()) {
                        chosen = node.getKey();
                        break;
                    }
                }
                if (chosen == null) {
                    return null;
                }
                int[] room = free.get(chosen);
                room[0] -= chunk.ncpus();
                room[1] -= (int) (chunk.memKb() / 1024);
                room[2] -= chunk.ngpus();
                placed.add(new Placed(chosen, room[3]++, chunk));
                usedNodes.add(chosen);
            }
        }
        return placed;
    }

    /** CPUs, memory in kB and GPUs assigned on the node to the jobs PBS lists there (not suspended, not lost). */
    private int[] assigned(String node) {
        int[] used = new int[3];
        for (Job job : listedOn(node)) {
            for (Placed p : job.placed) {
                if (p.node().equals(node)) {
                    used[0] += p.chunk().ncpus();
                    used[1] += (int) p.chunk().memKb();
                    used[2] += p.chunk().ngpus();
                }
            }
        }
        return used;
    }

    private boolean exclusivelyHeld(String node) {
        return listedOn(node).stream().anyMatch(Job::exclusive);
    }

    private List<Job> listedOn(String node) {
        return jobs.values().stream().filter(j -> (j.state.equals("R") || j.state.equals("E")) && j.listedOnNodes
                && j.hosts().contains(node)).toList();
    }

    private boolean up(String node) {
        return Files.exists(power.resolve(node));
    }

    private void render() throws IOException {
        long now = Instant.now().getEpochSecond();
        pbs.write("server-jobs.json", JSON.writerWithDefaultPrettyPrinter().writeValueAsString(renderJobs(now)));
        pbs.write("queues.json", JSON.writerWithDefaultPrettyPrinter().writeValueAsString(renderQueues(now)));
        pbs.write("nodes.json", JSON.writerWithDefaultPrettyPrinter().writeValueAsString(renderNodes(now)));
    }

    private ObjectNode renderJobs(long now) {
        ObjectNode out = header(now);
        if (jobs.isEmpty()) {
            return out;
        }
        ObjectNode byId = out.putObject("Jobs");
        JsonNode template = Templates.job();
        for (Job job : jobs.values()) {
            ObjectNode j = template.deepCopy();
            j.put("Job_Name", job.spec.name()).put("job_state", job.parent == null && !job.subjobs.isEmpty()
                    ? arrayParentState(job) : job.state).put("queue", job.spec.queue()).put("server", SERVER)
                    .put("ctime", PBS_TIME.format(job.queuedAt)).put("qtime", PBS_TIME.format(job.queuedAt))
                    .put("substate", job.parent == null && !job.subjobs.isEmpty() ? 70 : job.substate)
                    .put("Hold_Types", job.state.equals("H") ? "u" : "n");
            j.remove(List.of("exec_host", "exec_vnode", "resources_used", "stime", "session_id", "comment",
                    "run_count", "Execution_Time"));
            if (job.spec.startAfter() != null) {
                j.put("Execution_Time", PBS_TIME.format(job.spec.startAfter()));
            }
            if (job.holdsNodes()) {
                j.put("exec_host", execHost(job)).put("exec_vnode", execVnode(job)).put("stime",
                        PBS_TIME.format(job.queuedAt)).put("run_count", 1);
            }
            resourceList(j.putObject("Resource_List"), job.spec);
            if (!job.subjobs.isEmpty()) {
                long queued = job.subjobs.stream().filter(s -> jobs.containsKey(s)
                        && jobs.get(s).state.equals("Q")).count();
                long running = job.subjobs.stream().filter(s -> jobs.containsKey(s)
                        && jobs.get(s).state.equals("R")).count();
                j.put("array", "True").put("array_state_count", "Queued:" + queued + " Running:" + running
                        + " Exiting:0 Expired:" + (job.subjobs.size() - queued - running))
                        .put("array_indices_submitted", "1-" + job.subjobs.size());
            }
            if (job.parent != null && job.holdsNodes()) {
                j.put("array_id", job.parent).put("array_index", job.arrayIndex);
            }
            byId.set(job.id, j);
        }
        return out;
    }

    private String arrayParentState(Job parent) {
        return parent.subjobs.stream().anyMatch(s -> jobs.containsKey(s) && !jobs.get(s).state.equals("Q"))
                ? "B" : "Q";
    }

    private static String execHost(Job job) {
        return String.join("+", job.placed.stream().map(p -> p.node() + "/" + p.slot()).toList());
    }

    private static String execVnode(Job job) {
        return String.join("+", job.placed.stream().map(p -> "(" + p.node() + ":ncpus=" + p.chunk().ncpus()
                + (p.chunk().memKb() > 0 ? ":mem=" + p.chunk().memKb() + "kb" : "")
                + (p.chunk().ngpus() > 0 ? ":ngpus=" + p.chunk().ngpus() : "") + ")").toList());
    }

    /** As qstat prints it: numbers as numbers, {@code select=2} alone as a number, {@code mem} with its unit. */
    private static void resourceList(ObjectNode list, Submission spec) {
        int ncpus = 0;
        long memKb = 0;
        int ngpus = 0;
        int nodect = 0;
        List<String> select = new ArrayList<>();
        for (Chunk chunk : spec.select()) {
            ncpus += chunk.count() * chunk.ncpus();
            memKb += chunk.count() * chunk.memKb();
            ngpus += chunk.count() * chunk.ngpus();
            nodect += chunk.count();
            select.add(chunk.count() + ":ncpus=" + chunk.ncpus() + (chunk.memKb() > 0 ? ":mem=" + chunk.memKb()
                    / 1024 + "mb" : "") + (chunk.ngpus() > 0 ? ":ngpus=" + chunk.ngpus() : ""));
        }
        if (memKb > 0) {
            list.put("mem", memKb / 1024 + "mb");
        }
        list.put("ncpus", ncpus);
        if (ngpus > 0) {
            list.put("ngpus", ngpus);
        }
        list.put("nodect", nodect).put("place", spec.place()).put("select", String.join("+", select));
    }

    private ObjectNode renderQueues(long now) {
        ObjectNode out = header(now);
        ObjectNode queues = out.putObject("Queue");
        Set<String> names = new LinkedHashSet<>();
        nodes.values().forEach(n -> names.add(n.queue()));
        for (String name : names) {
            List<Job> inQueue = jobs.values().stream().filter(j -> j.spec.queue().equals(name)).toList();
            queues.putObject(name).put("queue_type", "Execution").put("total_jobs", inQueue.size())
                    .put("state_count", "Transit:0 Queued:" + count(inQueue, "Q") + " Held:" + count(inQueue, "H")
                            + " Waiting:" + count(inQueue, "W") + " Running:" + count(inQueue, "R") + " Exiting:0"
                            + " Begun:" + count(inQueue, "B") + " ")
                    .put("hasnodes", "True").put("enabled", "True").put("started", "True");
        }
        return out;
    }

    private static long count(List<Job> jobs, String state) {
        return jobs.stream().filter(j -> j.state.equals(state)).count();
    }

    private ObjectNode renderNodes(long now) {
        ObjectNode out = header(now);
        ObjectNode byName = out.putObject("nodes");
        JsonNode template = Templates.node();
        for (NodeSpec spec : nodes.values()) {
            ObjectNode n = template.deepCopy();
            n.remove(List.of("jobs", "comment", "last_used_time", "resources_assigned", "resources_available"));
            List<Job> listed = listedOn(spec.name());
            int[] used = assigned(spec.name());
            String state;
            if (!up(spec.name())) {
                state = "down";
            } else if (settling) {
                state = "state-unknown,down";
            } else if (listed.stream().anyMatch(Job::exclusive)) {
                state = "job-exclusive";
            } else if (used[0] >= spec.ncpus()) {
                state = "job-busy";
            } else {
                state = "free";
            }
            n.put("Mom", spec.name()).put("state", state).put("pcpus", spec.ncpus());
            if (!listed.isEmpty()) {
                ArrayNode ids = n.putArray("jobs");
                listed.forEach(j -> ids.add(j.id));
            }
            ObjectNode available = n.putObject("resources_available").put("arch", "linux").put("host", spec.name())
                    .put("mem", spec.memKb() + "kb").put("ncpus", spec.ncpus());
            if (spec.ngpus() > 0) {
                available.put("ngpus", spec.ngpus());
            }
            available.put("vnode", spec.name());
            ObjectNode assigned = n.putObject("resources_assigned");
            if (used[1] > 0) {
                assigned.put("mem", used[1] + "kb");
            }
            if (used[0] > 0) {
                assigned.put("ncpus", used[0]);
            }
            if (used[2] > 0) {
                assigned.put("ngpus", used[2]);
            }
            n.put("queue", spec.queue());
            if (!up(spec.name())) {
                n.put("comment", "node down: communication closed");
            }
            n.put("last_state_change_time", now);
            if (lastUsed.containsKey(spec.name())) {
                n.put("last_used_time", lastUsed.get(spec.name()));
            }
            byName.set(spec.name(), n);
        }
        return out;
    }

    private static ObjectNode header(long now) {
        return JSON.createObjectNode().put("timestamp", now).put("pbs_version", "23.06.06").put("pbs_server", SERVER);
    }

    private static long kilobytes(String size) {
        String number = size.replaceAll("[a-z]+$", "");
        String unit = size.substring(number.length());
        long value = Long.parseLong(number);
        return switch (unit) {
            case "kb" -> value;
            case "mb" -> value * 1024;
            case "gb" -> value * 1024 * 1024;
            default -> throw new IllegalArgumentException(size);
        };
    }

    /** The real OpenPBS 23.06 outputs each rendered job and node starts from. */
    private static final class Templates {
        private static JsonNode job;
        private static JsonNode node;

        static synchronized JsonNode job() {
            if (job == null) {
                job = read("real/qstat_f_t_F_json.json").path("Jobs").path("7.vm");
            }
            return job;
        }

        static synchronized JsonNode node() {
            if (node == null) {
                node = read("real/pbsnodes_a_F_json.json").path("nodes").path("cn009");
            }
            return node;
        }

        private static JsonNode read(String fixture) {
            try {
                return JSON.readTree(Fixtures.bytes(fixture));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
