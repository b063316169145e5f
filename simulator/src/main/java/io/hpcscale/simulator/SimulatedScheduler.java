package io.hpcscale.simulator;

import io.hpcscale.common.agent.OfflineMarker;
import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.agent.SchedulerCommandException;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.SchedulerSnapshot;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.JobTimes;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiPredicate;

/**
 * A batch scheduler in memory, run by the same agent framework as PBS and Slurm. It knows one node per instance of
 * the pools it serves; a node is up while its simulated instance runs. Jobs take whole nodes; they are started in
 * submission order (FCFS) with EASY backfilling: a later job may start early if it does not delay the first waiting
 * job's reservation, judged by the jobs' requested times.
 *
 * <p>If an instance stops while its node runs a job, the job is requeued. When the stop was asked for (not a Spot
 * eviction) it is recorded as a <em>violation</em>: hpcscale must never let that happen, and the tests and the
 * simulator check it never does.
 */
public final class SimulatedScheduler implements SchedulerAdapter {

    /** What the demo prints as it happens. */
    public interface Listener {
        void jobStarted(SimJob job, List<String> nodes, Instant at);

        void jobFinished(SimJob job, Instant at);

        default void nodeUp(String node, Instant at) {
        }

        default void violation(String message, Instant at) {
        }
    }

    private static final class Node {
        final String name;
        final String pool;
        final String queue;
        final int cpus;
        boolean up;
        /** Its VM runs, since {@code cloudUpSince}: a boot, whose scheduler daemon may wait for the node's check. */
        boolean cloudUp;
        Instant cloudUpSince;
        /** An administrator returned it to service since this boot began: whatever its check, that was theirs. */
        boolean returnedByAdministrator;
        boolean offline;
        String comment;
        /** Taken offline by an administrator, whatever its comment says now: hpcscale must leave it alone. */
        boolean heldByAdministrator;
        /**
         * A read showed the administrator's mark. Before that hpcscale cannot know of it: a mark set and then lost
         * to a server restart before any read is one only the administrator knew of.
         */
        boolean administratorMarkRead;
        /** hpcscale's store has recorded the administrator's mark since it was set: a scaler could know of it. */
        boolean administratorMarkRecorded;
        /**
         * While a cloud operation accepted earlier is carried out: whether hpcscale could know of an administrator's
         * mark when it asked (null otherwise). Such an operation is judged as asked, not as it lands.
         */
        Boolean knownHeldWhenAsked;
        String job;

        Node(String name, String pool, String queue, int cpus) {
            this.name = name;
            this.pool = pool;
            this.queue = queue;
            this.cpus = cpus;
        }
    }

    private static final class Running {
        final SimJob job;
        final Instant startedAt;
        final List<String> nodes;
        /** Suspended: it keeps its nodes, which the scheduler's node listing shows free and empty. */
        boolean suspended;
        Instant suspendedAt;
        /** Starting when the server restarted: it runs on, no longer listed on its nodes. */
        boolean unlisted;

        Running(SimJob job, Instant startedAt, List<String> nodes) {
            this.job = job;
            this.startedAt = startedAt;
            this.nodes = nodes;
        }

        boolean listed() {
            return !suspended && !unlisted;
        }

        Instant endsAt() {
            return startedAt.plus(job.runtime());
        }

        Instant expectedEnd() {
            return startedAt.plus(job.requestedTime());
        }
    }

    private final SimulatedCloud cloud;
    private final Clock clock;
    private final Map<String, Integer> cpusByPool;
    private final long memoryMbPerNode;
    private final Map<String, String> queueByPool;
    /** Each queue's pools, in the order its jobs try them. */
    private final Map<String, List<String>> poolsByQueue = new HashMap<>();
    private final Map<String, Node> nodes = new TreeMap<>();
    private final List<SimJob> queued = new ArrayList<>();
    private final Map<String, Running> running = new LinkedHashMap<>();
    private final PriorityQueue<Running> byEnd = new PriorityQueue<>(Comparator.comparing(Running::endsAt));
    private final List<SimJob> finished = new ArrayList<>();
    private final Map<String, Duration> waits = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private int evictedJobs;
    private int requeuedJobs;
    private final Set<String> jobsToldWhy = new HashSet<>();
    private int jobsAfterHoldWait;
    /** What hpcscale-node does on the nodes, or null where the simulation runs no node program. */
    private SimulatedNodePrograms nodePrograms;
    private int lostAdministratorMarks;
    private long cloudVersionSeen = -1;
    /** The server is down (reads fail) until then, after a restart. */
    private Instant serverDownUntil = Instant.MIN;
    /** Nodes show state-unknown,down until then, after a restart. */
    private Instant nodesUnknownUntil = Instant.MIN;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    /** Whether hpcscale's store records an administrator's mark on (pool, node): {@link #judgeByTheStore}. */
    private BiPredicate<String, String> markRecorded = (pool, node) -> true;

    /**
     * @param queueByPool the queue each served pool's jobs are submitted to, by pool name
     */
    public SimulatedScheduler(SimulatedCloud cloud, Clock clock, Map<String, String> queueByPool, int cpusPerNode,
            long memoryMbPerNode) {
        this(cloud, clock, queueByPool, cpusByPool(queueByPool, cpusPerNode), memoryMbPerNode);
    }

    /**
     * @param queueByPool the queue each served pool's nodes serve, by pool name, in the order a queue's jobs try
     *                    its pools (as a Slurm partition's node weights order them)
     * @param cpusByPool  the CPUs of each pool's nodes
     */
    public SimulatedScheduler(SimulatedCloud cloud, Clock clock, Map<String, String> queueByPool,
            Map<String, Integer> cpusByPool, long memoryMbPerNode) {
        this.cloud = cloud;
        this.clock = clock;
        this.cpusByPool = Map.copyOf(cpusByPool);
        this.memoryMbPerNode = memoryMbPerNode;
        this.queueByPool = Map.copyOf(queueByPool);
        queueByPool.forEach((pool, queue) -> poolsByQueue.computeIfAbsent(queue, q -> new ArrayList<>()).add(pool));
        cloud.addListener(this::instanceChanged);
    }

    private static Map<String, Integer> cpusByPool(Map<String, String> queueByPool, int cpusPerNode) {
        Map<String, Integer> cpus = new HashMap<>();
        queueByPool.keySet().forEach(pool -> cpus.put(pool, cpusPerNode));
        return cpus;
    }

    public void addListener(Listener listener) {
        listeners.add(listener);
    }

    @Override
    public String scheduler() {
        return "sim";
    }

    public synchronized void submit(SimJob job) {
        queued.add(job);
    }

    /** Ends jobs whose time has come, notices nodes that came up, and starts what can start. */
    public synchronized void step() {
        Instant now = clock.instant();
        while (!byEnd.isEmpty() && !byEnd.peek().endsAt().isAfter(now)) {
            Running done = byEnd.poll();
            // A job requeued after losing its node, or suspended, left an entry behind; only its current run ends.
            if (running.get(done.job.id()) != done || done.suspended) {
                continue;
            }
            running.remove(done.job.id());
            for (String name : done.nodes) {
                nodes.get(name).job = null;
            }
            finished.add(done.job);
            listeners.forEach(l -> l.jobFinished(done.job, done.endsAt()));
        }
        refreshNodes(now);
        schedule(now);
    }

    /** When the next running job ends, or null. */
    public synchronized Instant nextJobEnd() {
        return byEnd.isEmpty() ? null : byEnd.peek().endsAt();
    }

    public synchronized int queuedJobs() {
        return queued.size();
    }

    public synchronized int runningJobs() {
        return running.size();
    }

    public synchronized List<SimJob> finishedJobs() {
        return List.copyOf(finished);
    }

    /** How long each started job waited from submission to start. */
    public synchronized Map<String, Duration> waits() {
        return Map.copyOf(waits);
    }

    /** Jobs lost because hpcscale stopped the instance under them: must stay empty. */
    public synchronized List<String> violations() {
        return List.copyOf(violations);
    }

    /** Jobs requeued because the cloud evicted their instance. */
    public synchronized int evictedJobs() {
        return evictedJobs;
    }

    /** Nodes the waiting (not held) jobs ask for. */
    public synchronized int queuedNodes() {
        return queued.stream().filter(j -> !j.held()).mapToInt(SimJob::nodes).sum();
    }

    /**
     * Nodes that EASY backfilling would give waiting jobs now on a one-pool machine of {@code machineNodes} nodes if
     * every node not running a job were up: what a scheduler that counts powered-down nodes as its own (Slurm's power
     * saving) allocates, and so powers up, at once. The head jobs that fit start; the first that does not gets a
     * reservation at the earliest expected end of running jobs that frees enough; later jobs that fit start if they end
     * before it or leave it enough nodes.
     */
    public synchronized int nodesEasyWouldAllocate(int machineNodes, Instant now) {
        // When running jobs, and the head jobs this pass starts, are expected to end, with their nodes.
        List<Map.Entry<Instant, Integer>> ends = new ArrayList<>();
        running.values().forEach(r -> ends.add(Map.entry(r.expectedEnd(), r.nodes.size())));
        int room = machineNodes - running.values().stream().mapToInt(r -> r.nodes.size()).sum();
        int allocated = 0;
        Instant shadow = null;
        int extra = 0;
        for (SimJob job : queued) {
            if (job.held()) {
                continue;
            }
            if (shadow == null && job.nodes() <= room) {
                room -= job.nodes();
                allocated += job.nodes();
                ends.add(Map.entry(now.plus(job.requestedTime()), job.nodes()));
                continue;
            }
            if (shadow == null) {
                ends.sort(Map.Entry.comparingByKey());
                int available = room;
                shadow = Instant.MAX;
                for (Map.Entry<Instant, Integer> end : ends) {
                    available += end.getValue();
                    if (available >= job.nodes()) {
                        shadow = end.getKey();
                        extra = available - job.nodes();
                        break;
                    }
                }
                continue;
            }
            boolean endsBeforeShadow = !now.plus(job.requestedTime()).isAfter(shadow);
            if (job.nodes() <= room && (endsBeforeShadow || job.nodes() <= extra)) {
                if (!endsBeforeShadow) {
                    extra -= job.nodes();
                }
                room -= job.nodes();
                allocated += job.nodes();
            }
        }
        return allocated;
    }

    /** Nodes the waiting and running jobs ask for. */
    public synchronized int nodesDemanded() {
        return queued.stream().filter(j -> !j.held()).mapToInt(SimJob::nodes).sum()
                + running.values().stream().mapToInt(r -> r.nodes.size()).sum();
    }

    /** Starts a job now on the named nodes, whatever the queue; for tests that place jobs on chosen nodes. */
    public synchronized void startOn(SimJob job, List<String> names) {
        Instant now = clock.instant();
        refreshNodes(now);
        if (now.isBefore(nodesUnknownUntil)) {
            throw new IllegalStateException("the server is restarting: it places no job");
        }
        for (String name : names) {
            Node node = nodes.get(name);
            if (node == null || !node.up || node.offline || node.job != null) {
                throw new IllegalStateException("node " + name + " cannot take job " + job.id());
            }
        }
        queued.remove(job);
        begin(job, names, now);
    }

    /** Whether the node runs a job now, by the scheduler's own books. */
    public synchronized boolean busy(String name) {
        Node node = nodes.get(name);
        return node != null && node.job != null;
    }

    /** The ids of the jobs running now, suspended ones included. */
    public synchronized List<String> runningJobIds() {
        return List.copyOf(running.keySet());
    }

    /**
     * Suspends a running job ({@code qsig -s suspend}): it keeps its nodes, but the node listing shows them free and
     * empty, as PBS does; only the job's own record names them. It does not run on until resumed.
     */
    public synchronized void suspend(String jobId) {
        Running r = running.get(jobId);
        if (r != null && !r.suspended) {
            r.suspended = true;
            r.suspendedAt = clock.instant();
        }
    }

    /** Resumes a suspended job: it runs for the rest of its time from now. */
    public synchronized void resume(String jobId) {
        Running r = running.get(jobId);
        if (r == null || !r.suspended) {
            return;
        }
        Running resumed = new Running(r.job, r.startedAt.plus(Duration.between(r.suspendedAt, clock.instant())),
                r.nodes);
        resumed.unlisted = r.unlisted;
        running.put(jobId, resumed);
        byEnd.add(resumed);
    }

    /**
     * The scheduler's server restarts, as a PBS server does: reads fail while it is down, every node comment is lost
     * ({@code offline} stays), nodes show {@code state-unknown,down} until their moms report again, and jobs started
     * within {@code starting} of the restart come back running but no longer listed on their nodes.
     */
    public synchronized void restartServer(Duration down, Duration unknown, Duration starting) {
        Instant now = clock.instant();
        serverDownUntil = now.plus(down);
        nodesUnknownUntil = serverDownUntil.plus(unknown);
        nodes.values().forEach(n -> n.comment = null);
        for (Running r : running.values()) {
            if (!r.startedAt.isBefore(now.minus(starting))) {
                r.unlisted = true;
            }
        }
    }

    /**
     * An administrator takes the node offline with a comment of their own ({@code pbsnodes -o -C}); a node
     * hpcscale had taken offline becomes the administrator's. {@code false} brings it back, as the administrator's
     * {@code pbsnodes -r} would.
     */
    public synchronized void administratorOffline(String name, boolean offline) {
        Node node = nodes.get(name);
        if (node == null) {
            return;
        }
        node.heldByAdministrator = offline;
        node.administratorMarkRead = false;
        node.administratorMarkRecorded = false;
        node.offline = offline;
        node.comment = offline ? "maintenance: disk failing" : null;
        node.returnedByAdministrator |= !offline;
    }

    /**
     * How the checks learn what hpcscale's store records of an administrator's mark. A scaler plans from the store,
     * not from the scheduler: a mark the agent read but could not write (the store was down) is one no scaler can
     * know of, so starting or stopping that node's instance then is no violation; nor, once the agent has been
     * restarted, is an agent's claim on a node whose mark it read but never recorded. Without this every mark read
     * counts as known.
     */
    public synchronized void judgeByTheStore(BiPredicate<String, String> recorded) {
        markRecorded = recorded;
    }

    /**
     * A cloud operation on the node's instance that the cloud accepted now and carries out later (one that outlasts
     * the scaler's wait for it): hpcscale decided it now, on what it could know now, so its outcome is judged as of
     * now, not as of when it lands.
     */
    public synchronized Runnable acceptedNow(String name, Runnable operation) {
        Node node = nodes.get(name);
        if (node == null) {
            return operation;
        }
        boolean knownHeld = node.administratorMarkRead && recorded(node);
        return () -> {
            synchronized (this) {
                node.knownHeldWhenAsked = knownHeld;
            }
            try {
                operation.run();
            } finally {
                synchronized (this) {
                    node.knownHeldWhenAsked = null;
                }
            }
        };
    }

    /** The agent's process was restarted: a mark it read and the store never recorded is no longer known. */
    public synchronized void agentRestarted() {
        nodes.values().forEach(n -> n.administratorMarkRead &= recorded(n));
    }

    /**
     * Whether the store has recorded the node's administrator's mark since it was set, looked at now: once recorded,
     * a later document that lost it (an agent's mistake) does not excuse acting on the node.
     */
    private boolean recorded(Node node) {
        node.administratorMarkRecorded |= node.heldByAdministrator && markRecorded.test(node.pool, node.name);
        return node.administratorMarkRecorded;
    }

    /** Whether an administrator holds the node offline. */
    public synchronized boolean heldByAdministrator(String name) {
        Node node = nodes.get(name);
        return node != null && node.heldByAdministrator;
    }

    /**
     * Whether the node is offline with no comment at all: a mark a server restart emptied, whoever set it, which
     * hpcscale leaves to an administrator's {@code pbsnodes -r} (docs/operations.md).
     */
    public synchronized boolean offlineWithoutMark(String name) {
        Node node = nodes.get(name);
        return node != null && node.offline && node.comment == null;
    }

    @Override
    public synchronized SchedulerSnapshot read() throws SchedulerReadException {
        Instant now = clock.instant();
        if (now.isBefore(serverDownUntil)) {
            throw new SchedulerReadException("the simulated scheduler's server is restarting");
        }
        refreshNodes(now);
        List<SchedulerJob> jobs = new ArrayList<>(queued.size() + running.size());
        for (SimJob job : queued) {
            jobs.add(schedulerJob(job, job.held() ? JobState.Hold : JobState.Queued, List.of())
                    .withTimes(new JobTimes(job.requestedTime(), null)));
        }
        for (Running r : running.values()) {
            jobs.add(schedulerJob(r.job, JobState.Running, r.nodes)
                    .withTimes(new JobTimes(r.job.requestedTime(), r.startedAt)));
        }
        boolean unknown = now.isBefore(nodesUnknownUntil);
        List<SchedulerNode> snapshot = new ArrayList<>(nodes.size());
        for (Node node : nodes.values()) {
            node.administratorMarkRead |= node.heldByAdministrator && node.comment != null
                    && !OfflineMarker.isOurs(node.comment);
            recorded(node);
            Running r = node.job == null ? null : running.get(node.job);
            boolean listed = r != null && r.listed();
            String state = (!node.up ? "down" : unknown ? "state-unknown,down" : listed ? "job-busy" : "free")
                    + (node.offline ? ",offline" : "");
            snapshot.add(new SchedulerNode(node.name, List.of(node.queue), listed ? NodeJobStatus.Busy
                    : NodeJobStatus.Free, state, OfflineMarker.markOf(node.offline, node.comment),
                    !node.up || unknown, false, node.cpus, listed ? node.cpus : 0, memoryMbPerNode, 0, 0, 0,
                    listed ? List.of(node.job) : List.of(), null));
        }
        return SchedulerSnapshot.of(jobs, snapshot);
    }

    @Override
    public synchronized void offline(String name, String reason) throws SchedulerCommandException {
        Node node = node(name);
        overrideAdministrator(node, "marked node " + name + " offline");
        node.offline = true;
        node.comment = OfflineMarker.comment(reason, 80);
    }

    /** The job leaves its nodes and goes back to the head of the queue, as {@code qrerun} puts it. */
    @Override
    public synchronized boolean requeue(String jobId) throws SchedulerCommandException {
        Running r = running.remove(jobId);
        if (r == null) {
            throw new SchedulerCommandException("job " + jobId + " is not running", null);
        }
        for (String name : r.nodes) {
            nodes.get(name).job = null;
        }
        queued.add(0, r.job);
        requeuedJobs++;
        return true;
    }

    @Override
    public synchronized void bringBack(String name) throws SchedulerCommandException {
        Node node = node(name);
        overrideAdministrator(node, "returned node " + name + " to service");
        node.offline = false;
        node.comment = "returned to service by hpcscale";
    }

    /**
     * hpcscale changes a node an administrator holds offline: a violation once a read showed the administrator's
     * mark. Before that, the administrator's mark was lost with its comment to a server restart (on a node hpcscale
     * had taken offline itself, so nothing can tell the two apart): the hold is gone, and counted.
     */
    private void overrideAdministrator(Node node, String what) {
        if (node.administratorMarkRead) {
            violations.add("hpcscale " + what + ", which an administrator holds offline");
        } else if (node.heldByAdministrator) {
            node.heldByAdministrator = false;
            lostAdministratorMarks++;
        }
    }

    /**
     * Administrators' marks set on a node hpcscale had taken offline and lost to a server restart before any read
     * showed them: hpcscale cannot tell them from its own (docs/operations.md).
     */
    public synchronized int lostAdministratorMarks() {
        return lostAdministratorMarks;
    }

    private Node node(String name) throws SchedulerCommandException {
        Node node = nodes.get(name);
        if (node == null) {
            refreshNodes(clock.instant());
            node = nodes.get(name);
        }
        if (node == null) {
            throw new SchedulerCommandException("simulated scheduler has no node " + name, null);
        }
        return node;
    }

    /**
     * A whole-node job: one chunk of a node's CPUs per node. A job asking for CPUs: that many one-CPU chunks on
     * nodes of its own, which its own chunks share, as a scheduler with exclusive nodes places them.
     */
    private SchedulerJob schedulerJob(SimJob job, JobState state, List<String> hosts) {
        if (job.cpus() > 0) {
            return new SchedulerJob(job.id(), List.of(job.queue()), state, List.of(Chunk.ofCpus(job.cpus(), 1)),
                    job.nodes(), Placement.free, true, job.submitAt(), hosts);
        }
        return new SchedulerJob(job.id(), List.of(job.queue()), state,
                List.of(new Chunk(job.nodes(), cpusOf(firstPool(job)), 0, 0)), job.nodes(), Placement.scatter, true,
                job.submitAt(), hosts);
    }

    private int cpusOf(String pool) {
        return cpusByPool.getOrDefault(pool, 1);
    }

    private String firstPool(SimJob job) {
        List<String> pools = poolsByQueue.get(job.queue());
        return pools == null || pools.isEmpty() ? null : pools.get(0);
    }

    /**
     * The nodes run hpcscale-node from now on: the daemon of a node of a pool with a health check waits for its check,
     * and after a failure for the agent's hold, for longer than any outage the soak makes. That is what creating new
     * nodes out of service guards against on a site (docs/operations.md), which this scheduler therefore does not
     * model: a server restart would drop that mark before the agent's first read, and hpcscale rightly leaves an
     * offline node with no mark to whoever set it.
     */
    public synchronized void runNodePrograms(SimulatedNodePrograms programs) {
        nodePrograms = programs;
    }

    /** Keeps the reason as Slurm keeps an AdminComment: on a job it knows, until changed. */
    @Override
    public synchronized void showWaitReason(String jobId, String reason) throws SchedulerCommandException {
        boolean known = running.containsKey(jobId) || queued.stream().anyMatch(job -> job.id().equals(jobId));
        if (!known) {
            throw new SchedulerCommandException("job " + jobId + " is neither queued nor running", null);
        }
        if (reason != null) {
            jobsToldWhy.add(jobId);
        }
    }

    @Override
    public Duration waitReasonLasts() {
        return null;
    }

    /**
     * Jobs started on a node whose check failed after its hold wait ran out unheld: the window docs/operations.md
     * documents (no agent held the node within {@code node.healthCheckHoldWait}), counted rather than a violation.
     */
    public synchronized int jobsAfterHoldWait() {
        return jobsAfterHoldWait;
    }

    /** How many jobs were ever shown why they wait. */
    public synchronized int jobsToldWhyTheyWait() {
        return jobsToldWhy.size();
    }

    /** Jobs put back in the queue at hpcscale's request, before their node was taken. */
    public synchronized int requeuedJobs() {
        return requeuedJobs;
    }

    private void refreshNodes(Instant now) {
        long version = cloud.version();
        // Node programs change what runs on a node with time alone: their nodes are looked at on every step.
        if (version == cloudVersionSeen && nodePrograms == null) {
            return;
        }
        cloudVersionSeen = version;
        for (Map.Entry<String, String> pool : queueByPool.entrySet()) {
            if (!cloud.hasScaleSet(pool.getKey())) {
                continue;
            }
            java.util.Set<String> upNodes = cloud.upNodes(pool.getKey());
            for (Instance instance : cloud.instances(pool.getKey())) {
                if (cloud.startedOutside(instance.id()) && !nodes.containsKey(instance.nodeName())) {
                    continue;
                }
                Node node = nodes.computeIfAbsent(instance.nodeName(),
                        n -> new Node(n, pool.getKey(), pool.getValue(), cpusOf(pool.getKey())));
                boolean cloudUp = upNodes.contains(node.name);
                if (cloudUp && !node.cloudUp) {
                    node.cloudUpSince = now;
                    node.returnedByAdministrator = false;
                }
                node.cloudUp = cloudUp;
                boolean up = cloudUp && (nodePrograms == null || nodePrograms.daemonUp(node.pool, node.name,
                        node.cloudUpSince, now));
                if (up && !node.up) {
                    listeners.forEach(l -> l.nodeUp(node.name, now));
                }
                node.up = up;
            }
        }
    }

    private void instanceChanged(String pool, Instance instance, PowerState from, boolean evicted, Instant at) {
        synchronized (this) {
            Node node = nodes.get(instance.nodeName());
            if (node == null) {
                return;
            }
            boolean knownHeld = node.knownHeldWhenAsked != null ? node.knownHeldWhenAsked
                    : node.administratorMarkRead && recorded(node);
            if (knownHeld && !evicted && instance.state().active() != from.active()) {
                String message = "instance " + instance.id() + " was " + (instance.state().active() ? "started"
                        : "stopped") + " while an administrator held node " + node.name + " offline";
                violations.add(message);
                listeners.forEach(l -> l.violation(message, at));
            }
            if (instance.state().active()) {
                return;
            }
            node.up = false;
            node.cloudUp = false;
            if (node.job != null) {
                Running lost = running.remove(node.job);
                if (evicted) {
                    evictedJobs++;
                } else {
                    String message = "instance " + instance.id() + " stopped while node " + node.name + " ran job "
                            + node.job;
                    violations.add(message);
                    listeners.forEach(l -> l.violation(message, at));
                }
                if (lost != null) {
                    for (String name : lost.nodes) {
                        nodes.get(name).job = null;
                    }
                    queued.add(0, lost.job);
                }
            }
        }
    }

    /**
     * FCFS with EASY backfilling over whole, up, online, free nodes; nothing while the server restarts and its nodes'
     * state is unknown.
     */
    private void schedule(Instant now) {
        if (now.isBefore(nodesUnknownUntil)) {
            return;
        }
        Map<String, List<Node>> free = freeNodes();
        while (!queued.isEmpty()) {
            SimJob head = firstRunnable();
            if (head == null) {
                return;
            }
            String pool = poolWithRoom(head, free);
            if (pool == null) {
                backfill(now, head, free);
                return;
            }
            begin(head, take(free.get(pool), head.nodesOf(cpusOf(pool))), now);
        }
    }

    /** The first of the job's queue's pools with enough free nodes for it, or null. */
    private String poolWithRoom(SimJob job, Map<String, List<Node>> free) {
        for (String pool : poolsByQueue.getOrDefault(job.queue(), List.of())) {
            if (job.nodesOf(cpusOf(pool)) <= free.getOrDefault(pool, List.of()).size()) {
                return pool;
            }
        }
        return null;
    }

    /**
     * EASY backfilling: the head job's reservation is on the first of its pools that running jobs' expected ends
     * free enough nodes of; a later job may start on any pool with room now if it ends before that reservation, or
     * leaves the reservation's spare nodes enough.
     */
    private void backfill(Instant now, SimJob head, Map<String, List<Node>> free) {
        Instant shadow = null;
        String reserved = null;
        int extra = 0;
        List<Running> byExpectedEnd = new ArrayList<>(running.values());
        byExpectedEnd.sort(Comparator.comparing(Running::expectedEnd));
        for (String pool : poolsByQueue.getOrDefault(head.queue(), List.of())) {
            int needed = head.nodesOf(cpusOf(pool));
            int available = free.getOrDefault(pool, List.of()).size();
            for (Running r : byExpectedEnd) {
                available += (int) r.nodes.stream().filter(n -> nodes.get(n).pool.equals(pool)).count();
                if (available >= needed) {
                    if (shadow == null || r.expectedEnd().isBefore(shadow)) {
                        shadow = r.expectedEnd();
                        reserved = pool;
                        extra = available - needed;
                    }
                    break;
                }
            }
        }
        for (SimJob job : new ArrayList<>(queued)) {
            if (job == head || job.held()) {
                continue;
            }
            String pool = poolWithRoom(job, free);
            if (pool == null) {
                continue;
            }
            int needed = job.nodesOf(cpusOf(pool));
            boolean endsBeforeShadow = shadow == null || !now.plus(job.requestedTime()).isAfter(shadow);
            boolean elsewhere = reserved != null && !reserved.equals(pool);
            if (endsBeforeShadow || elsewhere || needed <= extra) {
                if (!endsBeforeShadow && !elsewhere) {
                    extra -= needed;
                }
                begin(job, take(free.get(pool), needed), now);
            }
        }
    }

    private SimJob firstRunnable() {
        for (SimJob job : queued) {
            if (!job.held()) {
                return job;
            }
        }
        return null;
    }

    /** The nodes that can take a job now, by pool, in name order. */
    private Map<String, List<Node>> freeNodes() {
        Map<String, List<Node>> free = new HashMap<>();
        for (Node node : nodes.values()) {
            if (node.up && !node.offline && node.job == null) {
                free.computeIfAbsent(node.pool, p -> new ArrayList<>()).add(node);
            }
        }
        return free;
    }

    private static List<String> take(List<Node> free, int count) {
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add(free.remove(0).name);
        }
        return names;
    }

    private void begin(SimJob job, List<String> names, Instant now) {
        queued.remove(job);
        Running r = new Running(job, now, names);
        running.put(job.id(), r);
        byEnd.add(r);
        for (String name : names) {
            Node node = nodes.get(name);
            node.job = job.id();
            if (nodePrograms != null && !nodePrograms.passed(node.pool, name) && !node.returnedByAdministrator
                    && nodePrograms.holdWaitRanOut(name)) {
                jobsAfterHoldWait++;
            } else if (nodePrograms != null && !nodePrograms.passed(node.pool, name)
                    && !node.returnedByAdministrator) {
                String message = "job " + job.id() + " started on node " + name + ", whose health check of this "
                        + "boot had not passed";
                violations.add(message);
                listeners.forEach(l -> l.violation(message, now));
            }
        }
        waits.putIfAbsent(job.id(), Duration.between(job.submitAt(), now));
        listeners.forEach(l -> l.jobStarted(job, names, now));
    }
}
