package io.hpcscale.agent.slurm;

import io.hpcscale.common.agent.DrainRight;
import io.hpcscale.common.agent.OfflineMarker;
import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.agent.SchedulerCommandException;
import io.hpcscale.common.agent.SchedulerCommandRunner;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.SchedulerSnapshot;
import io.hpcscale.common.agent.UnreadableEntryLog;
import io.hpcscale.common.exec.CommandFailedException;
import io.hpcscale.common.exec.CommandLine;
import io.hpcscale.common.exec.CommandRunner;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Slurm through its commands: {@code sinfo} and {@code squeue} to read (as JSON, or pipe-separated on Slurm without
 * {@code --json}), each read as it is printed; {@code sdiag} for the quick check between reads;
 * {@code scontrol update state=drain reason="hpcscale: ..."} to drain and {@code state=resume} to return a node.
 * With format {@code auto}, the first read probes {@code sinfo --json} and keeps what it learns.
 */
public final class SlurmAdapter implements SchedulerAdapter {
    private static final Logger log = LoggerFactory.getLogger(SlurmAdapter.class);

    /** How squeue and sinfo are read. */
    enum Format {
        AUTO,
        JSON,
        PIPE
    }

    private final SchedulerCommandRunner runner;
    private final SlurmCommands commands;
    private final UnreadableEntryLog skipped = new UnreadableEntryLog();
    private volatile Map<String, String> adminComments = Map.of();
    private final SlurmJsonReader json = new SlurmJsonReader(skipped);
    private final SlurmPipeReader pipes;
    private Format format;

    SlurmAdapter(CommandRunner runner, SlurmCommands commands, Format format, ZoneId zone) {
        this.runner = new SchedulerCommandRunner(runner);
        this.commands = commands;
        this.format = format;
        this.pipes = new SlurmPipeReader(skipped, zone);
    }

    @Override
    public String scheduler() {
        return "slurm";
    }

    @Override
    public SchedulerSnapshot read() throws SchedulerReadException, InterruptedException {
        SlurmReadResult<SlurmNode> nodes;
        if (format == Format.AUTO) {
            nodes = probe();
        } else {
            nodes = format == Format.JSON ? nodesFromJson() : nodesFromPipes();
        }
        SlurmReadResult<SlurmJob> jobs = format == Format.JSON ? jobsFromJson() : jobsFromPipes();
        skipped.endRead();
        return snapshot(jobs, nodes);
    }

    /**
     * slurmctld's job counters, from {@code sdiag}: a single small request that slurmctld answers from memory,
     * where even {@code squeue -t PENDING} has it pack every job. Any job submitted, started, completed, cancelled,
     * failed or requeued changes them; a hold or a release alone waits for the next full read.
     */
    @Override
    public Optional<String> quickSignature() throws SchedulerReadException, InterruptedException {
        CommandLine statistics = commands.statistics();
        return Optional.of(runner.read(statistics, output -> {
            try {
                return SdiagCounters.read(lines(output));
            } catch (IllegalArgumentException e) {
                throw new SchedulerReadException("`" + statistics.display() + "` printed no job counters ("
                        + e.getMessage() + "); is it Slurm's sdiag (setting " + SlurmCommands.SDIAG_SETTING + ")?");
            }
        }).value());
    }

    /** The partitions sinfo lists nodes in: a partition without nodes has nothing to scale. */
    @Override
    public Optional<Set<String>> queueNames() throws SchedulerReadException, InterruptedException {
        Set<String> partitions = new TreeSet<>();
        partitionsOfNodes().values().forEach(partitions::addAll);
        return Optional.of(partitions);
    }

    /** The partitions of each node sinfo lists: enough to map nodes to pools, without reading every job. */
    Map<String, List<String>> partitionsOfNodes() throws SchedulerReadException, InterruptedException {
        SlurmReadResult<SlurmNode> nodes = format == Format.AUTO ? probe()
                : format == Format.JSON ? nodesFromJson() : nodesFromPipes();
        Map<String, List<String>> partitions = new HashMap<>();
        nodes.entries().forEach(n -> partitions.put(n.name(), n.partitions()));
        return partitions;
    }

    /**
     * {@code scontrol update state=drain} of a node name no cluster has: slurmctld checks that the requester may
     * update nodes before it looks the node up ({@code validate_super_user} in {@code _slurm_rpc_update_node}), so
     * an allowed user is told "Invalid node name specified" and anyone else "Invalid user id", and no node changes
     * (both seen with Slurm 22.05, as root and as nobody).
     */
    @Override
    public Optional<DrainRight> probeDrainRight() throws InterruptedException {
        try {
            runner.change(commands.drain(SlurmCommands.PROBE_NODE, SlurmCommands.PROBE_REASON));
            return Optional.of(new DrainRight(null, "scontrol accepted the node name " + SlurmCommands.PROBE_NODE
                    + ", which should not exist; check it by hand with scontrol show node"));
        } catch (SchedulerCommandException e) {
            String stderr = e.getCause() instanceof CommandFailedException failed ? failed.stderr() : "";
            if (stderr.contains("Invalid node name")) {
                return Optional.of(new DrainRight(true, "scontrol update state=drain is allowed: slurmctld answered "
                        + "a probe with \"Invalid node name specified\", as it does only to users who may update "
                        + "nodes"));
            }
            if (stderr.contains("Invalid user id") || stderr.contains("Access/permission denied")) {
                String user = System.getProperty("user.name");
                return Optional.of(new DrainRight(false, "slurmctld refuses scontrol update to " + user + " ("
                        + stderr.strip() + "): run the agent as SlurmUser or root, or give " + user + " "
                        + "AdminLevel=Administrator with sacctmgr modify user " + user + " set "
                        + "adminlevel=Administrator (needs slurmdbd)"));
            }
            return Optional.of(new DrainRight(null, "the probe of scontrol update failed: " + e.getMessage()));
        }
    }

    @Override
    public void offline(String node, String reason) throws SchedulerCommandException, InterruptedException {
        runner.change(commands.drain(node, OfflineMarker.comment(reason, SlurmCommands.MAX_REASON)));
    }

    @Override
    public void bringBack(String node) throws SchedulerCommandException, InterruptedException {
        runner.change(commands.resume(node));
    }

    /**
     * {@code scontrol requeue JOB}: slurmctld kills the job and queues it again under its id, held back by a begin
     * time of a few seconds as Slurm does for every requeue. Refused for a job submitted with {@code --no-requeue}
     * or on a cluster with {@code JobRequeue=0} that the job did not override, and to users other than the job's
     * owner, an operator or SlurmUser.
     */
    @Override
    public boolean requeue(String jobId) throws SchedulerCommandException, InterruptedException {
        runner.change(commands.requeue(jobId));
        return true;
    }

    /**
     * The job's {@code AdminComment} (what Slurm-GCP writes its errors to), which {@code scontrol show job} shows
     * while the job waits and {@code sacct -o AdminComment} after it ended; taken back when the job starts, so that
     * the accounting does not keep a reason that no longer held. Only an operator or SlurmUser may set it, as for the
     * drains. The pending reason of {@code squeue} belongs to slurmctld, which sets it at every scheduling pass.
     */
    @Override
    public void showWaitReason(String jobId, String reason) throws SchedulerCommandException, InterruptedException {
        runner.change(commands.adminComment(jobId, reason == null ? "" : reason));
    }

    /** slurmctld keeps an AdminComment until it is changed. */
    @Override
    public Duration waitReasonLasts() {
        return null;
    }

    /** The jobs' AdminComments as the last read found them; none from Slurm's older text output. */
    @Override
    public Map<String, String> waitReasonFields() {
        return adminComments;
    }

    /**
     * Builds the snapshot: job states interpreted, and each node given the jobs running on it. Whatever one job or
     * node holds, it costs only itself.
     */
    private SchedulerSnapshot snapshot(SlurmReadResult<SlurmJob> jobs, SlurmReadResult<SlurmNode> nodes) {
        List<SchedulerJob> schedulerJobs = new ArrayList<>(jobs.entries().size());
        Set<String> unreadableJobs = new HashSet<>(jobs.unreadable());
        Map<String, List<String>> jobsByNode = new HashMap<>();
        Map<String, String> comments = new HashMap<>();
        for (SlurmJob job : jobs.entries()) {
            if (job.adminComment() != null && !job.adminComment().isEmpty()) {
                comments.put(job.id(), job.adminComment());
            }
            try {
                Optional<SchedulerJob> mapped = SlurmStates.job(job);
                mapped.ifPresent(schedulerJobs::add);
                if (SlurmStates.ON_NODES.contains(job.state().toUpperCase(Locale.ROOT))) {
                    for (String node : Hostlists.expand(job.nodeList())) {
                        jobsByNode.computeIfAbsent(node, n -> new ArrayList<>()).add(job.id());
                    }
                }
            } catch (RuntimeException e) {
                unreadableJobs.add(job.id());
                skipped.skipped("job", job.id(), e);
            }
        }
        List<SchedulerNode> schedulerNodes = new ArrayList<>(nodes.entries().size());
        Set<String> unreadableNodes = new HashSet<>(nodes.unreadable());
        for (SlurmNode node : nodes.entries()) {
            try {
                schedulerNodes.add(SlurmStates.node(node, jobsByNode.getOrDefault(node.name(), List.of())));
            } catch (RuntimeException e) {
                unreadableNodes.add(node.name());
                skipped.skipped("node", node.name(), e);
            }
        }
        adminComments = Map.copyOf(comments);
        return new SchedulerSnapshot(schedulerJobs, schedulerNodes, unreadableJobs, unreadableNodes);
    }

    /**
     * Decides the format on the first read: {@code sinfo --json} that works means JSON; one that fails because the
     * option or its plugin does not exist means the pipe formats. Any other failure (no controller) decides
     * nothing and fails the read, to be tried again next cycle.
     */
    private SlurmReadResult<SlurmNode> probe() throws SchedulerReadException, InterruptedException {
        CommandLine probe = commands.nodesAsJson();
        try {
            SlurmJsonReader.Read<SlurmNode> nodes = runner.read(probe, output -> json.nodes(output, probe.display()))
                    .value();
            format = Format.JSON;
            log.info("reading Slurm as JSON: squeue --json and sinfo --json, format {}", nodes.format());
            return nodes.result();
        } catch (SchedulerReadException e) {
            if (!(e.getCause() instanceof CommandFailedException failed) || !jsonUnsupported(failed.stderr())) {
                throw e;
            }
            format = Format.PIPE;
            log.info("reading Slurm with pipe-separated squeue -o and sinfo -o formats: sinfo --json is not "
                    + "available here ({})", failed.stderr().strip());
            return nodesFromPipes();
        }
    }

    private static boolean jsonUnsupported(String stderr) {
        String text = stderr.toLowerCase(Locale.ROOT);
        return text.contains("unrecognized option") || text.contains("invalid option") || text.contains("plugin")
                || text.contains("json");
    }

    private SlurmReadResult<SlurmNode> nodesFromJson() throws SchedulerReadException, InterruptedException {
        CommandLine command = commands.nodesAsJson();
        return runner.read(command, output -> json.nodes(output, command.display())).value().result();
    }

    private SlurmReadResult<SlurmJob> jobsFromJson() throws SchedulerReadException, InterruptedException {
        CommandLine command = commands.jobsAsJson();
        return runner.read(command, output -> json.jobs(output, command.display())).value().result();
    }

    private SlurmReadResult<SlurmNode> nodesFromPipes() throws SchedulerReadException, InterruptedException {
        PipeFormat sinfo = new PipeFormat(SlurmPipeReader.SINFO_FORMAT);
        return runner.read(commands.nodesAsPipes(), output -> pipes.nodes(lines(output), sinfo)).value();
    }

    private SlurmReadResult<SlurmJob> jobsFromPipes() throws SchedulerReadException, InterruptedException {
        PipeFormat squeue = new PipeFormat(SlurmPipeReader.SQUEUE_FORMAT);
        return runner.read(commands.jobsAsPipes(), output -> pipes.jobs(lines(output), squeue)).value();
    }

    /** Slurm prints UTF-8 in the C locale the commands run in; anything else is kept as replacement characters. */
    private static BufferedReader lines(InputStream output) {
        return new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8));
    }
}
