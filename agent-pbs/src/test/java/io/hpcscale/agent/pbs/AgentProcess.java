package io.hpcscale.agent.pbs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs {@code hpcscale-agent-pbs} as its own process, as an administrator would, with a chosen PATH. */
final class AgentProcess {
    record Result(int exitCode, String stdout, String stderr) {
    }

    private AgentProcess() {
    }

    static Result run(Path standIns, String... args) throws IOException, InterruptedException {
        return run(standIns, Map.of(), args);
    }

    /** With these variables added to the agent's environment. */
    static Result run(Path standIns, Map<String, String> environment, String... args)
            throws IOException, InterruptedException {
        ProcessBuilder builder = builder(standIns, args);
        builder.environment().putAll(environment);
        Process process = builder.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the agent did not finish within 90 s");
        }
        return new Result(process.exitValue(), out.join(), err.join());
    }

    /** Starts the agent without waiting; its output is discarded. */
    static Process start(Path standIns, String... args) throws IOException {
        return builder(standIns, args).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static ProcessBuilder builder(Path standIns, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), PbsAgentMain.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(k -> k.startsWith("HPCSCALE_"));
        env.put("PATH", standIns + ":" + System.getenv("PATH"));
        return builder;
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
