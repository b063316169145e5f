package io.hpcscale.scaler.cli;

import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.loop.ServiceLoop;
import io.hpcscale.common.metrics.MetricsServer;
import java.time.Clock;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * The service: a cycle every {@code scaler.interval} until SIGTERM or SIGINT. Those begin no new call, let the calls
 * in flight finish and record them (for at most {@code scaler.shutdownGrace}), give up the lease, and exit 0.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "run",
        description = "Run the scaler: one cycle every scaler.interval, until stopped.")
final class ScalerRunCommand implements Callable<Integer> {
    private static final Logger log = LoggerFactory.getLogger(ScalerRunCommand.class);

    @ParentCommand
    private RootCommand root;

    @Override
    public Integer call() throws InterruptedException {
        Clock clock = Clock.systemUTC();
        Settings settings = root.loadSettings();
        try (ScalerRuntime runtime = ScalerRuntime.start(settings, clock);
                MetricsServer.Handle metrics = runtime.serveMetrics(settings)) {
            ServiceLoop loop = new ServiceLoop(clock, runtime.interval(), runtime::serviceCycle);
            log.info("hpcscale-scaler started for {} pools, a cycle every {}s{}{}", runtime.scaler().pools().size(),
                    runtime.interval().toSeconds(), metrics.describe(),
                    runtime.dryRun() ? ", DRY RUN: nothing will be touched" : "");
            loop.runUntilShutdown(runtime.grace(), runtime::stopActing);
            boolean clean = runtime.shutDown();
            log.info("hpcscale-scaler stopped{}", clean ? "" : " with a call still in flight");
            return clean ? 0 : 1;
        }
    }
}
