package io.hpcscale.simulator.cli;

import io.hpcscale.common.logging.LogLevels;
import io.hpcscale.simulator.Demo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The embedded demo: needs no configuration, no Azure and no scheduler. */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "demo", description = "Run a whole small cluster on this machine: a simulated scheduler and cloud, "
        + "the real agent framework and scaler, a SQLite store, a compressed clock.")
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--jobs", description = "Jobs in the generated workload (default: ${DEFAULT-VALUE}).",
            defaultValue = "20")
    private int jobs;

    @Option(names = "--seed", description = "Seed of the generated workload (default: ${DEFAULT-VALUE}).",
            defaultValue = "7")
    private long seed;

    @Option(names = "--speed", description = "Simulated seconds per real second; 0 is as fast as possible "
            + "(default: ${DEFAULT-VALUE}).", defaultValue = "150")
    private double speed;

    @Option(names = "--dir", description = "Directory for the demo's store and configuration (default: a new "
            + "temporary directory).")
    private Path directory;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Path dir = directory != null ? directory : Files.createTempDirectory("hpcscale-demo-");
        LogLevels.apply("warn");
        Demo.Result result = new Demo(new Demo.Options(seed, jobs, speed, dir), System.out).run();
        boolean good = result.completed() && result.violations().isEmpty() && result.finished() == result.submitted()
                && result.activeAtEnd() == result.min();
        return good ? 0 : 1;
    }
}
