package io.hpcscale.common.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * An hpcscale service ({@code run}) as its own JVM, the way systemd starts it on its host: its own configuration
 * file, its output in a log file, stopped with SIGTERM. End-to-end tests start an agent and a scaler this way, so
 * that they share nothing but the store.
 */
public final class ServiceProcess implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Path log;

    private ServiceProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code mainClass run --config config} on this JVM's class path, trusting the test certificate.
     *
     * @param path directories to put first on the PATH (stand-in scheduler commands), or none
     */
    public static ServiceProcess start(String name, String mainClass, Path config, Path log, List<Path> path)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.addAll(TestCertificate.get().jvmOptions());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass, "run", "--config",
                config.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(k -> k.startsWith("HPCSCALE_"));
        StringBuilder searchPath = new StringBuilder();
        path.forEach(p -> searchPath.append(p).append(':'));
        env.put("PATH", searchPath + System.getenv("PATH"));
        return new ServiceProcess(name, builder.start(), log);
    }

    /** A file holding the local Cosmos server's key, readable by its owner only, as the store requires. */
    /** Writes a host's properties file under {@code dir/<host>/}, as if each service ran on its own machine. */
    public static Path config(Path dir, String host, String text) throws IOException {
        Path home = Files.createDirectories(dir.resolve(host));
        Path file = home.resolve("hpcscale.properties");
        Files.writeString(file, text);
        return file;
    }

    /**
     * Waits until {@code done} holds, polling every 100 ms; after {@code timeout} fails with {@code what} and the
     * services' output, which is what tells why.
     */
    public static void awaitUntil(Duration timeout, String what, List<ServiceProcess> services,
            Callable<Boolean> done) throws Exception {
        Instant deadline = Instant.now().plus(timeout);
        while (!done.call()) {
            if (Instant.now().isAfter(deadline)) {
                StringBuilder logs = new StringBuilder();
                for (ServiceProcess service : services) {
                    logs.append("\n--- ").append(service.output());
                }
                throw new AssertionError("not within " + timeout.toSeconds() + " s: " + what + logs);
            }
            Thread.sleep(100);
        }
    }

    public static Path cosmosKeyFile(Path dir) throws IOException {
        Path key = Files.createDirectories(dir).resolve("cosmos.key");
        Files.writeString(key, CosmosTestServer.KEY);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        return key;
    }

    /** The store settings of a service on the local Cosmos server, one container per test. */
    public static String cosmosSettings(Path dir, String container) throws IOException {
        return String.join("\n",
                "store.type = cosmos",
                "store.cosmos.endpoint = " + CosmosTestServer.running().endpoint(),
                "store.cosmos.auth = key",
                "store.cosmos.keyFile = " + cosmosKeyFile(dir),
                "store.cosmos.container = " + container,
                "store.cosmos.connectionMode = gateway") + "\n";
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** What it printed so far. */
    public String output() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** SIGTERM, as systemd stops it; its exit status, or a failure if it outlives the grace. */
    public int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(name + " did not stop within 60 s of SIGTERM");
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
