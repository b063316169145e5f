package io.hpcscale.agent.slurm;

import io.hpcscale.common.agent.OfflineMarker;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.JobTimes;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** What Slurm's job and node states mean for scaling; shared by the JSON and the pipe-format readers. */
final class SlurmStates {
    private static final Set<String> RUNNING = Set.of("RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED",
            "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED");
    private static final Set<String> QUEUED = Set.of("PENDING", "REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD",
            "SPECIAL_EXIT");
    private static final Set<String> FINISHED = Set.of("COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL",
            "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", "REVOKED");
    private static final Set<String> HELD_REASONS = Set.of("JobHeldUser", "JobHeldAdmin");
    private static final Set<String> WAITING_REASONS = Set.of("BeginTime", "Dependency", "DependencyNeverSatisfied");
    /**
     * A limit or a setting, not a lack of nodes, holds the job (SchedMD, "Job Reason Codes": AssocGrp*, AssocMax*,
     * QOSGrp*, QOSMax*, Max*PerAccount, MaxMemPerLimit, AccountingPolicy, the older Association*Limit and QOS*Limit,
     * an array's JobArrayTaskLimit; an invalid or disallowed QOS or account; a partition down, inactive, or whose
     * time limit the job's exceeds). Not PartitionNodeLimit or ReqNodeNotAvail, which Slurm also gives a job whose
     * nodes are down, as hpcscale's stopped nodes are.
     */
    private static final Pattern LIMIT_REASONS = Pattern.compile("(Assoc|QOS)\\w*|Max\\w*PerAccount|MaxMemPerLimit"
            + "|AccountingPolicy|JobArrayTaskLimit|InvalidQOS|InvalidAccount|AccountNotAllowed|PartitionDown"
            + "|PartitionInactive|PartitionTimeLimit");

    /** Jobs whose nodes are occupied by it. */
    static final Set<String> ON_NODES = Set.of("RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "RESIZING",
            "SIGNALING", "STAGE_OUT", "STOPPED");

    private static final Set<String> UP_STATES = Set.of("idle", "mixed", "allocated", "completing", "planned",
            "reserved", "maint");
    private static final Set<String> DRAIN_STATES = Set.of("drained", "draining", "drain", "fail", "failing");
    private static final Set<String> DOWN_STATES = Set.of("down", "unknown", "future", "error", "inval",
            "reboot_issued", "reboot_requested", "power_down", "powering_down", "powered_down", "powering_up");
    private static final Set<String> DOWN_FLAGS = Set.of("NOT_RESPONDING", "POWERED_DOWN", "POWERING_UP",
            "POWERING_DOWN", "REBOOT_ISSUED");
    private static final Set<String> OFFLINE_FLAGS = Set.of("DRAIN", "DRAINING", "DRAINED", "FAIL");

    private SlurmStates() {
    }

    /**
     * The job as the framework sees it, or empty for finished jobs, which are not demand.
     *
     * @throws IllegalArgumentException for a state this agent does not know, so the job is kept as it was
     */
    static Optional<SchedulerJob> job(SlurmJob job) {
        String state = job.state().toUpperCase(Locale.ROOT);
        if (FINISHED.contains(state)) {
            return Optional.empty();
        }
        JobState status;
        if (RUNNING.contains(state)) {
            status = JobState.Running;
        } else if (QUEUED.contains(state)) {
            status = pendingStatus(state, job);
        } else {
            throw new IllegalArgumentException("its state '" + job.state() + "' is not one hpcscale knows");
        }
        int nodes = Math.max(1, job.nodes());
        int cpusPerNode = Math.max(job.minCpusPerNode(), (Math.max(1, job.cpus()) + nodes - 1) / nodes);
        long memoryPerNode = job.memoryPerNodeMb() != null ? job.memoryPerNodeMb()
                : job.memoryPerCpuMb() != null ? job.memoryPerCpuMb() * cpusPerNode : 0;
        int gpusPerNode = Math.max(SlurmResources.gpus(job.tresPerNode()),
                (SlurmResources.gpus(job.tresPerJob()) + nodes - 1) / nodes);
        List<String> hosts = ON_NODES.contains(state) ? Hostlists.expand(job.nodeList()) : List.of();
        String waitingFor = status == JobState.Waiting && heldByALimit(job)
                ? "Slurm's " + job.reason() + ": a limit or a setting, not a lack of nodes, holds it" : null;
        return Optional.of(new SchedulerJob(job.id(), job.partitions(), status,
                List.of(new Chunk(nodes, cpusPerNode, memoryPerNode, gpusPerNode)), nodes,
                nodes > 1 ? Placement.scatter : Placement.pack, job.exclusive(), job.submittedAt(), hosts, waitingFor,
                SlurmAsks.of(job.features(), gres(job), job.licenses()),
                times(job, status == JobState.Running && !state.equals("SUSPENDED"))));
    }

    /**
     * A running job's limit, start and Slurm's own end, which counts the time the job was suspended (seen on a real
     * Slurm: a job suspended 40 s ends 40 s later). A suspended job's limit stops running while it is suspended: its
     * end cannot be told. A pending job's start and end are Slurm's guesses, which move: not kept.
     */
    private static JobTimes times(SlurmJob job, boolean runsOnItsClock) {
        if (!runsOnItsClock) {
            return new JobTimes(job.timeLimit(), null);
        }
        return new JobTimes(job.timeLimit(), job.startTime(), job.timeLimit() == null ? null : job.endTime());
    }

    private static String gres(SlurmJob job) {
        if (job.tresPerNode() == null) {
            return job.tresPerJob();
        }
        return job.tresPerJob() == null ? job.tresPerNode() : job.tresPerNode() + "," + job.tresPerJob();
    }

    /**
     * Held when the reason says so or the priority is 0; waiting for a time, a dependency or a limit; else queued.
     */
    private static JobState pendingStatus(String state, SlurmJob job) {
        String reason = job.reason() == null ? "" : job.reason();
        if (state.equals("REQUEUE_HOLD") || state.equals("SPECIAL_EXIT") || job.priority() == 0
                || HELD_REASONS.contains(reason)) {
            return JobState.Hold;
        }
        if (WAITING_REASONS.contains(reason) || heldByALimit(job)) {
            return JobState.Waiting;
        }
        return JobState.Queued;
    }

    private static boolean heldByALimit(SlurmJob job) {
        return job.reason() != null && LIMIT_REASONS.matcher(job.reason()).matches();
    }

    /**
     * The node as the framework sees it. DRAIN is offline (hpcscale's own when the reason carries its marker); down,
     * not responding and powered down or powering up or down are down: not usable, and not yet reported in.
     *
     * @throws IllegalArgumentException for a base state this agent does not know, so the node is kept as it was
     */
    static SchedulerNode node(SlurmNode node, List<String> jobIds) {
        String state = node.state().toLowerCase(Locale.ROOT);
        boolean up = UP_STATES.contains(state);
        boolean drainState = DRAIN_STATES.contains(state);
        boolean downState = DOWN_STATES.contains(state);
        if (!up && !drainState && !downState) {
            throw new IllegalArgumentException("its state '" + node.state() + "' is not one hpcscale knows");
        }
        boolean offline = drainState || node.flags().stream().anyMatch(OFFLINE_FLAGS::contains);
        boolean down = downState || node.flags().stream().anyMatch(DOWN_FLAGS::contains);
        int allocCpus = node.allocCpus() >= 0 ? node.allocCpus()
                : (state.equals("allocated") ? node.cpus() : 0);
        boolean busy = !jobIds.isEmpty() || allocCpus > 0 || state.equals("allocated") || state.equals("mixed")
                || state.equals("completing") || node.flags().contains("COMPLETING");
        String raw = state + (node.flags().isEmpty() ? "" : "+" + String.join("+", node.flags().stream().sorted()
                .toList()));
        return new SchedulerNode(node.name(), node.partitions(), busy ? NodeJobStatus.Busy : NodeJobStatus.Free, raw,
                OfflineMarker.markOf(offline, node.reason()), down, false, node.cpus(), allocCpus,
                node.memoryMb(), node.allocMemoryMb(), SlurmResources.gpus(node.gres()),
                SlurmResources.gpus(node.gresUsed()), jobIds, node.lastBusy());
    }
}
