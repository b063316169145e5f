package io.hpcscale.agent.pbs;

import io.hpcscale.common.agent.OfflineMarker;
import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.agent.SchedulerCommandException;
import io.hpcscale.common.agent.SchedulerCommandRunner;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.SchedulerSnapshot;
import io.hpcscale.common.exec.CommandLine;
import io.hpcscale.common.exec.CommandRunner;
import io.hpcscale.common.exec.StreamedResult;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * PBS Professional / OpenPBS through its commands: {@code pbsnodes -a -F json}, {@code qstat -Q -f -F json} and
 * {@code qstat -f -t -F json} to read, each read as it is printed; {@code qstat -Q -f -F json} alone for the quick
 * check between reads; {@code pbsnodes -o -C "hpcscale: ..."} to drain and {@code pbsnodes -r} to return a node.
 */
public final class PbsAdapter implements SchedulerAdapter {
    private final SchedulerCommandRunner runner;
    private final PbsCommands commands;
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
        PbsQueues queues = new PbsQueues(queues().stream().filter(PbsQueue::stopped).map(PbsQueue::name)
                .collect(Collectors.toSet()), nodes.sharing());
        CommandLine listJobs = commands.listJobs();
        PbsOutputParser.Jobs jobs = runner.read(listJobs, output -> parser.jobs(output, listJobs.display(), queues))
                .value();
        return new SchedulerSnapshot(jobs.jobs(), nodes.nodes(), jobs.unreadable(), nodes.unreadable());
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

    @Override
    public void offline(String node, String reason) throws SchedulerCommandException, InterruptedException {
        runner.change(commands.offline(node, OfflineMarker.comment(reason, PbsCommands.MAX_COMMENT)));
    }

    @Override
    public void bringBack(String node) throws SchedulerCommandException, InterruptedException {
        runner.change(commands.returnToService(node));
    }
}
