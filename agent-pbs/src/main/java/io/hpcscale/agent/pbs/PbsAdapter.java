package io.hpcscale.agent.pbs;

import io.hpcscale.common.agent.OfflineMarker;
import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.agent.SchedulerCommandException;
import io.hpcscale.common.agent.SchedulerCommandRunner;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.SchedulerSnapshot;
import io.hpcscale.common.exec.CommandResult;
import io.hpcscale.common.exec.CommandRunner;
import java.time.ZoneId;

/**
 * PBS Professional / OpenPBS through its commands: {@code pbsnodes -a -F json}, {@code qstat -Q -f -F json} and
 * {@code qstat -f -t -F json} to read, {@code pbsnodes -o -C "hpcscale: ..."} to drain and {@code pbsnodes -r} to
 * return a node.
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
        CommandResult nodesOutput = runner.read(commands.listNodes());
        PbsOutputParser.Nodes nodes = parser.nodes(nodesOutput.stdout(), nodesOutput.stderr(),
                commands.listNodes().display());
        CommandResult queuesOutput = runner.read(commands.listQueues());
        PbsQueues queues = new PbsQueues(parser.stoppedQueues(queuesOutput.stdout(), commands.listQueues().display()),
                nodes.sharing());
        CommandResult jobsOutput = runner.read(commands.listJobs());
        PbsOutputParser.Jobs jobs = parser.jobs(jobsOutput.stdout(), commands.listJobs().display(), queues);
        return new SchedulerSnapshot(jobs.jobs(), nodes.nodes(), jobs.unreadable(), nodes.unreadable());
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
