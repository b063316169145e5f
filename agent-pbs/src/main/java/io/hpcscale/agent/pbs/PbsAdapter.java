package io.hpcscale.agent.pbs;

import io.hpcscale.common.agent.DrainRight;
import io.hpcscale.common.agent.OfflineMarker;
import io.hpcscale.common.agent.QueueLimit;
import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.agent.SchedulerCommandException;
import io.hpcscale.common.agent.SchedulerCommandRunner;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.SchedulerSnapshot;
import io.hpcscale.common.exec.CommandFailedException;
import io.hpcscale.common.exec.CommandLine;
import io.hpcscale.common.exec.CommandRunner;
import io.hpcscale.common.exec.StreamedResult;
import io.hpcscale.common.logging.OncePerKey;
import io.hpcscale.common.model.NodeNames;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PBS Professional / OpenPBS through its commands: {@code pbsnodes -a -F json}, {@code qstat -Q -f -F json} and
 * {@code qstat -f -t -F json} to read, each read as it is printed; {@code qstat -Q -f -F json} alone for the quick
 * check between reads; {@code pbsnodes -o -C "hpcscale: ..."} to drain and {@code pbsnodes -r} to return a node.
 */
public final class PbsAdapter implements SchedulerAdapter {
    private static final Logger log = LoggerFactory.getLogger(PbsAdapter.class);

    private final SchedulerCommandRunner runner;
    private final PbsCommands commands;
    private final OncePerKey unreadableLimits = new OncePerKey();
    private final PbsOutputParser parser;

    PbsAdapter(CommandRunner runner, PbsCommands commands, ZoneId serverZone) {
        this.runner = new SchedulerCommandRunner(runner);
        this.commands = commands;
        this.parser = new PbsOutputParser(serverZone);
    }

    @Override
    public String scheduler() {
        return "pbs";
    }

    @Override
    public SchedulerSnapshot read() throws SchedulerReadException, InterruptedException {
        PbsOutputParser.Nodes nodes = nodes();
        List<PbsQueue> read = queues();
        PbsQueues queues = new PbsQueues(read.stream().filter(PbsQueue::stopped).map(PbsQueue::name)
                .collect(Collectors.toSet()), nodes.sharing());
        CommandLine listJobs = commands.listJobs();
        PbsOutputParser.Jobs jobs = runner.read(listJobs, output -> parser.jobs(output, listJobs.display(), queues))
                .value();
        return new SchedulerSnapshot(jobs.jobs(), heldByUnreadableJobs(nodes.nodes(), jobs.unreadableHolding()),
                jobs.unreadable(), nodes.unreadable(), limits(read));
    }

    /** Each queue's limits; a limit that cannot be read is said once and not applied. */
    private Map<String, List<QueueLimit>> limits(List<PbsQueue> read) {
        Map<String, List<QueueLimit>> limits = new HashMap<>();
        for (PbsQueue queue : read) {
            if (!queue.limits().isEmpty()) {
                limits.put(queue.name(), queue.limits());
            }
            for (String problem : queue.problems()) {
                if (unreadableLimits.first(queue.name() + " " + problem)) {
                    log.warn("queue {}: {}: this limit is not applied; correct it with qmgr", queue.name(), problem);
                }
            }
        }
        return limits;
    }

    /** A job that cannot be read still holds the nodes its {@code exec_host} names. */
    private static List<SchedulerNode> heldByUnreadableJobs(List<SchedulerNode> nodes,
            Map<String, List<String>> holding) {
        if (holding.isEmpty()) {
            return nodes;
        }
        Map<String, Set<String>> jobsByHost = new HashMap<>();
        holding.forEach((job, hosts) -> hosts.forEach(h -> jobsByHost.computeIfAbsent(NodeNames.key(h),
                k -> new LinkedHashSet<>()).add(job)));
        List<SchedulerNode> held = new ArrayList<>(nodes.size());
        for (SchedulerNode node : nodes) {
            held.add(node.alsoHeldBy(jobsByHost.getOrDefault(NodeNames.key(node.name()), Set.of())));
        }
        return held;
    }

    /**
     * Each queue's {@code total_jobs} and {@code state_count}, and whether it is stopped: PBS answers
     * {@code qstat -Q} from memory, and any job queued, started, finished or moved changes it.
     */
    @Override
    public Optional<String> quickSignature() throws SchedulerReadException, InterruptedException {
        return Optional.of(queues().stream().sorted(Comparator.comparing(PbsQueue::name)).map(PbsQueue::signature)
                .collect(Collectors.joining("; ")));
    }

    private PbsOutputParser.Nodes nodes() throws SchedulerReadException, InterruptedException {
        CommandLine listNodes = commands.listNodes();
        StreamedResult<Optional<PbsOutputParser.Nodes>> listed = runner.read(listNodes,
                output -> parser.nodes(output, listNodes.display()));
        if (listed.value().isPresent()) {
            return listed.value().get();
        }
        if (listed.stderr().contains("No nodes found")) {
            return PbsOutputParser.Nodes.none();
        }
        throw new SchedulerReadException("`" + listNodes.display() + "` printed nothing"
                + (listed.stderr().isBlank() ? "" : " but: " + listed.stderr().strip())
                + "; nothing was changed. Run the command by hand to see what it prints.");
    }

    @Override
    public Optional<Set<String>> queueNames() throws SchedulerReadException, InterruptedException {
        return Optional.of(queues().stream().map(PbsQueue::name).collect(Collectors.toSet()));
    }

    private List<PbsQueue> queues() throws SchedulerReadException, InterruptedException {
        CommandLine listQueues = commands.listQueues();
        return runner.read(listQueues, output -> parser.queues(output, listQueues.display())).value();
    }

    /**
     * {@code pbsnodes -o} on a node name no server has: the server checks the requester's operator or manager right
     * before it looks the node up (OpenPBS {@code req_manager}), so an operator is told "Unknown node" and anyone
     * else "Unauthorized Request", and no node changes either way.
     */
    @Override
    public Optional<DrainRight> probeDrainRight() throws InterruptedException {
        try {
            runner.change(commands.offline(PbsCommands.PROBE_NODE, PbsCommands.PROBE_COMMENT));
            return Optional.of(new DrainRight(null, "`pbsnodes -o` accepted the node name "
                    + PbsCommands.PROBE_NODE + ", which should not exist; run `pbsnodes -r " + PbsCommands.PROBE_NODE
                    + "` and check by hand"));
        } catch (SchedulerCommandException e) {
            String stderr = e.getCause() instanceof CommandFailedException failed ? failed.stderr() : "";
            if (stderr.contains("Unknown node")) {
                return Optional.of(new DrainRight(true, "pbsnodes -o is allowed: the server answered a probe with "
                        + "\"Unknown node\", as it does only to operators and managers"));
            }
            if (stderr.contains("Unauthorized Request")) {
                String user = System.getProperty("user.name");
                return Optional.of(new DrainRight(false, "the PBS server refuses pbsnodes -o to " + user + " "
                        + "(\"Unauthorized Request\"): make it an operator with qmgr -c \"set server operators += "
                        + user + "@*\" (the server may see this host as localhost, so @$(hostname -f) is not "
                        + "always enough)"));
            }
            return Optional.of(new DrainRight(null, "the probe of pbsnodes -o failed: " + e.getMessage()));
        }
    }

    @Override
    public void offline(String node, String reason) throws SchedulerCommandException, InterruptedException {
        runner.change(commands.offline(node, OfflineMarker.comment(reason, PbsCommands.MAX_COMMENT)));
    }

    @Override
    public void bringBack(String node) throws SchedulerCommandException, InterruptedException {
        runner.change(commands.returnToService(node));
    }

    /**
     * {@code qrerun JOB}: the server kills the job on its nodes and queues it again, keeping its id. It needs the
     * operator or manager right the drains need already, and refuses a job submitted with {@code -r n}.
     */
    @Override
    public boolean requeue(String jobId) throws SchedulerCommandException, InterruptedException {
        runner.change(commands.rerun(jobId));
        return true;
    }

    /**
     * The job's comment, which {@code qstat -s} and {@code qstat -f} show. Nothing is taken back: the scheduler
     * writes its own comment over it, at its next cycle for a job it cannot run and when it starts the job
     * ({@code Job run at ...}).
     */
    @Override
    public void showWaitReason(String jobId, String reason) throws SchedulerCommandException, InterruptedException {
        if (reason != null) {
            runner.change(commands.comment(jobId, reason));
        }
    }

    /**
     * The scheduler's cycle: at each, it writes its own comment on every job it cannot run whose comment differs
     * ({@code update_job_comment} in OpenPBS's {@code src/scheduler/job_info.cpp}), and it runs every
     * {@code scheduler_iteration}, 600 s by default ({@code PBS_SCHEDULE_CYCLE} in
     * {@code src/include/server_limits.h}), and whenever a job is queued or ends.
     */
    @Override
    public Duration waitReasonLasts() {
        return Duration.ofMinutes(10);
    }
}
