package io.hpcscale.common.agent.cli;

import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.loop.ServiceLoop;
import java.time.Clock;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** The service: a cycle every {@code agent.interval} until stopped (SIGTERM ends it after the cycle in progress). */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "run", description = "Run the agent: one cycle every agent.interval, until stopped.")
final class AgentRunCommand implements Callable<Integer> {
    private static final Logger log = LoggerFactory.getLogger(AgentRunCommand.class);

    @ParentCommand
    private RootCommand root;

    private final AgentDefinition definition;

    AgentRunCommand(AgentDefinition definition) {
        this.definition = definition;
    }

    @Override
    public Integer call() throws InterruptedException {
        Clock clock = Clock.systemUTC();
        try (AgentRuntime runtime = AgentRuntime.start(root.loadSettings(), definition, clock)) {
            ServiceLoop loop = new ServiceLoop(clock, runtime.interval(), now -> runtime.agent().runOnce(now));
            log.info("{} started as {}, a cycle every {}s", root.component().programName(), runtime.agent().id(),
                    runtime.interval().toSeconds());
            loop.runUntilShutdown(runtime.interval().plusSeconds(30));
            log.info("{} stopped", root.component().programName());
        }
        return 0;
    }
}
