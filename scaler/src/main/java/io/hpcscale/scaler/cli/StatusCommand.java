package io.hpcscale.scaler.cli;

import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.scaler.report.ScalerStatus;
import io.hpcscale.scaler.report.StatusJson;
import io.hpcscale.scaler.report.StatusReader;
import io.hpcscale.scaler.report.StatusText;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * What each pool is doing and why, read-only: a planning cycle (each pool's instances listed, its documents read,
 * nothing written or needing the lease) and the scaler's state, the agents' heartbeats and the lease. Works while
 * the service runs. Exits 1 when a pool could not be listed or the store read.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "status",
        description = "Show each pool: queued jobs and the nodes they need, instances by state, target, backoff, "
                + "last action, agent heartbeat, and which scaler holds the lease. Read-only.")
final class StatusCommand implements Callable<Integer> {
    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    @Option(names = "--pool", paramLabel = "POOL", description = "Only this pool.")
    private String pool;

    @Option(names = "--json", description = "One JSON object, for scripts.")
    private boolean json;

    @Override
    public Integer call() throws InterruptedException {
        ScalerStatus status;
        try (ScalerRuntime runtime = ScalerRuntime.forReading(root.loadSettings(), Clock.systemUTC())) {
            if (pool != null && !runtime.poolConfigs().containsKey(pool)) {
                throw new ParameterException(spec.commandLine(), "--pool " + pool
                        + " is not a configured pool: " + String.join(", ", runtime.poolConfigs().keySet()));
            }
            status = new StatusReader(runtime.documents()).read(runtime.poolConfigs(), runtime.oneCycle(true));
        }
        if (pool != null) {
            status = new ScalerStatus(status.at(), status.lease(),
                    status.pools().stream().filter(p -> p.pool().equals(pool)).toList(), status.error());
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(StatusJson.of(status).toPrettyString());
        } else {
            Ansi ansi = spec.commandLine().getColorScheme().ansi();
            new StatusText(ansi).lines(status).forEach(out::println);
        }
        out.flush();
        return status.incomplete() ? 1 : 0;
    }
}
