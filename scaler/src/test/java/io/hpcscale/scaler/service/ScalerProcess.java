package io.hpcscale.scaler.service;

import io.hpcscale.scaler.cli.ScalerMain;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code hpcscale-scaler} as its own process, as systemd would run it; its output goes to a log file. */
final class ScalerProcess {
    private ScalerProcess() {
    }

    static Process start(Path log, String... args) throws IOException {
        return start(log, List.of(), args);
    }

    /** @param wrapper a command the JVM runs under, e.g. {@code faketime -f +60s}; empty for none */
    static Process start(Path log, List<String> wrapper, String... args) throws IOException {
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), ScalerMain.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().keySet().removeIf(k -> k.startsWith("HPCSCALE_"));
        return builder.start();
    }
}
