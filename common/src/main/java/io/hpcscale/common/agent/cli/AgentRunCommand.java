package io.hpcscale.common.agent.cli;

import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.loop.ServiceLoop;
import io.hpcscale.common.metrics.AgentMetrics;
import io.hpcscale.common.metrics.Health;
import io.hpcscale.common.metrics.MetricsServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * The service: a cycle every {@code agent.interval} until SIGTERM or SIGINT, which let the cycle in progress (and the
 * scheduler command in flight) finish, bounded by {@code agent.shutdownGrace}, then exit 0.
 */
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
        Settings settings = root.loadSettings();
        PrometheusRegistry registry = new PrometheusRegistry();
        Health health = new Health(settings.intValue("metrics.unhealthyAfter"));
        AgentMetrics metrics = new AgentMetrics(registry, health);
        try (AgentRuntime runtime = AgentRuntime.start(settings, definition, clock);
                MetricsServer.Handle server = MetricsServer.start(settings, "metrics.agentPort", registry, health)) {
            Duration quick = settings.duration("agent.quickInterval");
            ServiceLoop loop = new ServiceLoop(clock, runtime.interval(), new AgentServiceCycle(runtime.agent(),
                    runtime.interval(), quick, report -> metrics.cycle(report, runtime.storeUsage())));
            log.info("{} started as {}, a full cycle every {}s{}{}", root.program().name(),
                    runtime.agent().id(), runtime.interval().toSeconds(), quick.isZero() ? ""
                            : ", and sooner when a check every " + quick.toSeconds() + "s finds queues or drain "
                            + "requests changed", server.describe());
            loop.runUntilShutdown(settings.duration("agent.shutdownGrace"), () -> { });
            log.info("{} stopped", root.program().name());
        }
        return 0;
    }
}
