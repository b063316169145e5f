package io.hpcscale.agent.pbs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A PBS server in miniature behind {@link StandInPbs}: queue {@code workq}, nodes whose "VMs" are files a command
 * provider's scripts create and delete, and exclusive one-node jobs it runs first come, first served on nodes that
 * are up, free and not offline. Every {@link #tick()} it writes what {@code qstat -f -F json}, {@code qstat -Q -f -F
 * json} and {@code pbsnodes -a -F json} print, in PBS's own format (the fixtures', on one line, which the stand-in's
 * offline marks expect), each file replaced at once so a reader never sees half of one. A node's VM stopped while a job runs on it is recorded as a violation.
 */
final class StandInPbsServer {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StandInPbs pbs;
    private final Path power;
    private final List<String> nodes;
    private final Map<String, String> runningOn = new LinkedHashMap<>();
    private final Map<String, Instant> queued = new LinkedHashMap<>();
    private final List<String> violations = new ArrayList<>();
    private int nextJob = 100;

    StandInPbsServer(StandInPbs pbs, Path power, List<String> nodes) throws IOException {
        this.pbs = pbs;
        this.power = Files.createDirectories(power);
        this.nodes = List.copyOf(nodes);
        pbs.qstatPrints("server-jobs.json");
        tick();
    }

    /** The command provider's list, start and stop programs: a node's VM runs while its file exists. */
    Map<String, Path> powerCommands() throws IOException {
        Map<String, Path> commands = new LinkedHashMap<>();
        commands.put("list", script("vm-list", "for n in " + String.join(" ", nodes) + "; do\n"
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

    synchronized String submit() throws IOException {
        String id = (nextJob++) + ".pbsserver";
        queued.put(id, Instant.now());
        render();
        return id;
    }

    synchronized boolean running(String job) {
        return runningOn.containsKey(job);
    }

    /** Ends every job, as if each finished. */
    synchronized void endAll() throws IOException {
        runningOn.clear();
        queued.clear();
        render();
    }

    synchronized List<String> violations() {
        return List.copyOf(violations);
    }

    /** One turn of the server: notice VMs that went away, start what can start, print the new state. */
    synchronized void tick() throws IOException {
        for (Map.Entry<String, String> job : List.copyOf(runningOn.entrySet())) {
            if (!up(job.getValue())) {
                violations.add(job.getValue() + " was stopped while it ran job " + job.getKey());
                runningOn.remove(job.getKey());
            }
        }
        for (String job : List.copyOf(queued.keySet())) {
            Optional<String> node = nodes.stream().filter(n -> up(n) && !offline(n)
                    && !runningOn.containsValue(n)).findFirst();
            if (node.isEmpty()) {
                break;
            }
            queued.remove(job);
            runningOn.put(job, node.get());
        }
        render();
    }

    private boolean up(String node) {
        return Files.exists(power.resolve(node));
    }

    private boolean offline(String node) {
        return Files.exists(pbs.directory().resolve("offline." + node));
    }

    private void render() throws IOException {
        long now = Instant.now().getEpochSecond();
        ObjectNode jobs = header(now);
        ObjectNode byId = jobs.putObject("Jobs");
        queued.forEach((id, at) -> job(byId, id, "Q", null));
        runningOn.forEach((id, node) -> job(byId, id, "R", node));
        replace("server-jobs.json", jobs);

        ObjectNode queues = header(now);
        queues.putObject("Queue").putObject("workq").put("queue_type", "Execution")
                .put("total_jobs", queued.size() + runningOn.size())
                .put("state_count", "Transit:0 Queued:" + queued.size() + " Held:0 Waiting:0 Running:"
                        + runningOn.size() + " Exiting:0 Begun:0 ")
                .put("enabled", "True").put("started", "True");
        replace("queues.json", queues);

        ObjectNode nodeList = header(now);
        ObjectNode byName = nodeList.putObject("nodes");
        for (String node : nodes) {
            String job = runningOn.entrySet().stream().filter(e -> e.getValue().equals(node)).map(Map.Entry::getKey)
                    .findFirst().orElse(null);
            ObjectNode n = byName.putObject(node);
            n.put("Mom", node).put("ntype", "PBS")
                    .put("state", !up(node) ? "down" : job != null ? "job-exclusive" : "free").put("pcpus", 4);
            if (job != null) {
                n.putArray("jobs").add(job);
            }
            n.putObject("resources_available").put("arch", "linux").put("host", node).put("mem", "8192000kb")
                    .put("ncpus", 4).put("Qlist", "workq").put("vnode", node);
            n.putObject("resources_assigned").put("mem", job != null ? "4194304kb" : "0kb")
                    .put("ncpus", job != null ? 4 : 0);
            n.put("resv_enable", "True").put("sharing", "default_shared").put("last_state_change_time", now)
                    .put("last_used_time", now);
        }
        replace("nodes.json", nodeList);
    }

    private static ObjectNode header(long now) {
        return JSON.createObjectNode().put("timestamp", now).put("pbs_version", "2022.1.1.20220926110806")
                .put("pbs_server", "pbsserver");
    }

    private static void job(ObjectNode jobs, String id, String state, String node) {
        ObjectNode job = jobs.putObject(id);
        job.put("Job_Name", "e2e").put("Job_Owner", "user1@headnode").put("job_state", state).put("queue", "workq")
                .put("server", "pbsserver");
        if (node != null) {
            job.put("exec_host", node + "/0*4").put("exec_vnode", "(" + node + ":ncpus=4:mem=4194304kb)");
        }
        job.put("Hold_Types", "n");
        job.putObject("Resource_List").put("mem", "4gb").put("ncpus", 4).put("nodect", 1).put("place", "excl")
                .put("select", "1:ncpus=4:mem=4gb");
        job.put("qtime", "Mon Nov 23 23:10:01 2020").put("substate", node != null ? 42 : 10)
                .put("Submit_Host", "headnode");
    }

    private void replace(String file, ObjectNode json) throws IOException {
        Path target = pbs.directory().resolve(file);
        Path temporary = pbs.directory().resolve(file + ".new");
        Files.writeString(temporary, JSON.writeValueAsString(json),
                StandardCharsets.UTF_8);
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
