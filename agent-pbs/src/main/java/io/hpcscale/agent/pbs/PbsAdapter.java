package io.hpcscale.agent.pbs;

import io.hpcscale.common.agent.OfflineMarker;
import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.agent.SchedulerCommandException;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.SchedulerSnapshot;
import io.hpcscale.common.exec.CommandException;
import io.hpcscale.common.exec.CommandLine;
import io.hpcscale.common.exec.CommandResult;
import io.hpcscale.common.exec.CommandRunner;
import java.time.ZoneId;

/**
 * PBS Professional / OpenPBS through its commands: {@code pbsnodes -a -F json}, {@code qstat -Q -f -F json} and
 * {@code qstat -f -t -F json} to read, {@code pbsnodes -o -C "hpcscale: ..."} to drain and {@code pbsnodes -r} to
 * return a node.
 */
public final class PbsAdapter implements SchedulerAdapter {
    private final CommandRunner runner;
    private final PbsCommands commands;
    private final PbsOutputParser parser;

    PbsAdapter(CommandRunner runner, PbsCommands commands, ZoneId serverZone) {
        this.runner = runner;
        this.commands = commands;
        this.parser = new PbsOutputParser(serverZone);
    }

    @Override
    public String scheduler() {
        return "pbs";
    }

    @Override
    public SchedulerSnapshot read() throws SchedulerReadException, InterruptedException {
        CommandResult nodesOutput = run(commands.listNodes());
        PbsOutputParser.Nodes nodes = parser.nodes(nodesOutput.stdout(), nodesOutput.stderr(),
                commands.listNodes().display());
        CommandResult queuesOutput = run(commands.listQueues());
        PbsQueues queues = new PbsQueues(parser.stoppedQueues(queuesOutput.stdout(), commands.listQueues().display()),
                nodes.sharing());
        CommandResult jobsOutput = run(commands.listJobs());
        PbsOutputParser.Jobs jobs = parser.jobs(jobsOutput.stdout(), commands.listJobs().display(), queues);
        return new SchedulerSnapshot(jobs.jobs(), nodes.nodes(), jobs.unreadable(), nodes.unreadable());
    }

    @Override
    public void offline(String node, String reason) throws SchedulerCommandException, InterruptedException {
        change(commands.offline(node, OfflineMarker.comment(reason, PbsCommands.MAX_COMMENT)));
    }

    @Override
    public void bringBack(String node) throws SchedulerCommandException, InterruptedException {
        change(commands.returnToService(node));
    }

    private CommandResult run(CommandLine command) throws SchedulerReadException, InterruptedException {
        try {
            return runner.run(command);
        } catch (CommandException e) {
            throw new SchedulerReadException(e.getMessage() + "; nothing was changed", e);
        }
    }

    private void change(CommandLine command) throws SchedulerCommandException, InterruptedException {
        try {
            runner.run(command);
        } catch (CommandException e) {
            throw new SchedulerCommandException(e.getMessage(), e);
        }
    }
}
