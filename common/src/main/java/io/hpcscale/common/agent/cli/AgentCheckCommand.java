package io.hpcscale.common.agent.cli;

import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.cli.Cli;
import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.store.StoreCheck;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** Checks, before the service runs, what the agent needs on this host; exits 1 if anything is a problem. */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "check",
        description = "Check the store, the scheduler's commands, the pools' queues and nodes, and the right to "
                + "take nodes out of service, changing nothing.")
final class AgentCheckCommand implements Callable<Integer> {
    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    private final AgentDefinition definition;

    AgentCheckCommand(AgentDefinition definition) {
        this.definition = definition;
    }

    @Override
    public Integer call() throws InterruptedException {
        Settings settings = root.loadSettings();
        PoolMap pools = PoolMap.fromSettings(settings, definition.queueProperty())
                .withMultiQueueRule(definition.multiQueueRule().apply(settings));
        List<AgentCheck.Finding> findings = new ArrayList<>();
        StoreCheck.run(settings, Clock.systemUTC())
                .forEach(finding -> findings.add(new AgentCheck.Finding(finding.ok(), finding.sentence())));
        findings.addAll(new AgentCheck(definition.adapterFactory().create(settings, new ZtExecCommandRunner()), pools,
                definition.queueProperty()).run());
        PrintWriter out = spec.commandLine().getOut();
        int number = 0;
        for (AgentCheck.Finding finding : findings) {
            out.printf("  %d. %-7s %s%n", ++number, finding.ok() ? "ok" : "problem", finding.sentence());
        }
        long problems = findings.stream().filter(f -> !f.ok()).count();
        out.println(problems == 0 ? "everything checked is ok" : problems + " problem" + (problems == 1 ? "" : "s"));
        out.flush();
        return problems == 0 ? 0 : Cli.FAILURE;
    }
}
