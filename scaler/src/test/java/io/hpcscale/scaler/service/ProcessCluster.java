package io.hpcscale.scaler.service;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import io.hpcscale.scaler.documents.LeaseDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the scaler-process tests run against: one SQLite store, a pool "rack" of stand-in instances switched by power
 * scripts, an agent stepping every 200 ms, and a configuration file with a 1 s cycle and the given lease.
 */
final class ProcessCluster implements AutoCloseable {

    final PowerScripts power;
    final DocumentStore store;
    final FakeAgent agent;
    final Path config;
    private final Path dir;
    private final SqliteClusterLoadStore sqlite;
    private final ScheduledExecutorService agentThread = Executors.newSingleThreadScheduledExecutor();
    private final List<Process> scalers = new ArrayList<>();

    ProcessCluster(Path dir, int instances, Duration lease) throws IOException {
        this.dir = dir;
        power = new PowerScripts(Files.createDirectories(dir.resolve("power")), instances);
        sqlite = new SqliteClusterLoadStore(dir.resolve("clusterload.db"), Duration.ofSeconds(10), Clock.systemUTC());
        store = new DocumentStore(sqlite);
        agent = new FakeAgent(store, power, "rack", instances);
        List<String> lines = new ArrayList<>(List.of("store.sqlite.path = " + dir.resolve("clusterload.db"),
                "scaler.interval = 1s", "scaler.leaseTtl = " + lease.toSeconds() + "s",
                "scaler.shutdownGrace = 30s", "pool.rack.cpus = 4", "pool.rack.memoryMb = 1000",
                "pool.rack.max = " + instances, "pool.rack.idleTimeout = 0s"));
        lines.addAll(power.configLines("rack"));
        config = Files.write(dir.resolve("hpcscale.properties"), lines);
        agent.step();
        agentThread.scheduleWithFixedDelay(agent::step, 200, 200, TimeUnit.MILLISECONDS);
    }

    /** {@code hpcscale-scaler run} on this cluster, its output in {@code NAME.log}, under the wrapper if any. */
    Process scaler(String name, List<String> wrapper) throws IOException {
        Process process = ScalerProcess.start(dir.resolve(name + ".log"), wrapper, "run", "--config",
                config.toString());
        scalers.add(process);
        return process;
    }

    String log(String name) throws IOException {
        Path file = dir.resolve(name + ".log");
        return Files.exists(file) ? Files.readString(file) : "";
    }

    Optional<LeaseDocument> lease() {
        return store.read(LeaseDocument.KEY, LeaseDocument.class).map(DocumentStore.Versioned::document);
    }

    static void within(Duration timeout, String what, Callable<Boolean> done) throws Exception {
        Instant deadline = Instant.now().plus(timeout);
        while (!done.call()) {
            assertTrue(Instant.now().isBefore(deadline), "not within " + timeout.toMillis() + " ms: " + what);
            Thread.sleep(50);
        }
    }

    @Override
    public void close() throws InterruptedException {
        agentThread.shutdownNow();
        agentThread.awaitTermination(10, TimeUnit.SECONDS);
        // A wrapper such as faketime runs the JVM as its child and does not pass a kill on.
        for (Process scaler : scalers) {
            scaler.descendants().forEach(ProcessHandle::destroyForcibly);
            scaler.destroyForcibly();
        }
        sqlite.close();
    }
}
