package io.hpcscale.scaler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static io.hpcscale.scaler.service.ProcessCluster.within;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.scaler.documents.EventDocument;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.LeaseDocument;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hpcscale-scaler run} as its own process, twice on one SQLite store, with the command provider and stand-in
 * power scripts: one acts, the other stands by and takes over; SIGTERM lets a slow start finish.
 */
class ScalerServiceProcessTest {
    private static final int INSTANCES = 3;

    @TempDir
    Path dir;

    private ProcessCluster cluster;
    private PowerScripts power;
    private DocumentStore store;
    private FakeAgent agent;

    @BeforeEach
    void cluster() throws IOException {
        cluster = new ProcessCluster(dir, INSTANCES, Duration.ofSeconds(3));
        power = cluster.power;
        store = cluster.store;
        agent = cluster.agent;
    }

    @AfterEach
    void stop() throws InterruptedException {
        cluster.close();
    }

    private Process scaler(String name) throws IOException {
        return cluster.scaler(name, List.of());
    }

    private String log(String name) throws IOException {
        return cluster.log(name);
    }

    private Optional<LeaseDocument> lease() {
        return cluster.lease();
    }

    @Test
    void twoRunProcessesOnOneStoreIssueEveryStartAndStopExactlyOnce() throws Exception {
        Process first = scaler("first");
        Process second = scaler("second");
        agent.jobs(INSTANCES);
        within(Duration.ofSeconds(60), "every instance on", () -> power.on("vm1") && power.on("vm2")
                && power.on("vm3"));
        Thread.sleep(3000);
        agent.jobs(0);
        within(Duration.ofSeconds(60), "every instance off", () -> !power.on("vm1") && !power.on("vm2")
                && !power.on("vm3"));
        Thread.sleep(3000);
        for (int i = 1; i <= INSTANCES; i++) {
            assertEquals(1, power.begun("on", "vm" + i), "vm" + i + " started once: " + power.calls());
            assertEquals(1, power.begun("off", "vm" + i), "vm" + i + " stopped once: " + power.calls());
        }
        long holder = lease().orElseThrow().pid();
        String standby = holder == first.pid() ? "second" : "first";
        assertTrue(holder == first.pid() || holder == second.pid());
        assertTrue(log(standby).contains("standby: scaler ") && log(standby).contains("holds the lease"),
                log(standby));
    }

    @Test
    void theStandbyTakesOverWithinTheLeaseTtlAfterTheActiveOneIsKilled() throws Exception {
        Process first = scaler("first");
        within(Duration.ofSeconds(30), "the first holds the lease",
                () -> lease().map(l -> l.pid() == first.pid()).orElse(false));
        Process second = scaler("second");
        within(Duration.ofSeconds(30), "the second stands by", () -> log("second").contains("standby: scaler "));
        first.destroyForcibly();
        first.waitFor(10, TimeUnit.SECONDS);
        Instant killed = Instant.now();
        within(Duration.ofSeconds(10), "the second takes over",
                () -> lease().map(l -> l.pid() == second.pid()).orElse(false));
        Duration takeover = Duration.between(killed, Instant.now());
        assertTrue(takeover.compareTo(Duration.ofSeconds(3)) <= 0, "took over after " + takeover);
        System.out.printf("standby took over %d ms after the active scaler was killed (leaseTtl 3 s)%n",
                takeover.toMillis());
        agent.jobs(1);
        within(Duration.ofSeconds(30), "the new active one starts an instance", () -> power.on("vm1"));
        assertEquals(1, power.begun("on", "vm1"));
    }

    @Test
    void sigtermDuringASlowStartLetsItFinishRecordsItAndExitsZero() throws Exception {
        power.slow(3);
        Process scaler = scaler("only");
        agent.jobs(1);
        within(Duration.ofSeconds(30), "the slow start begins", () -> Files.exists(power.dir().resolve("began-vm1")));
        Instant signalled = Instant.now();
        scaler.destroy();
        assertTrue(scaler.waitFor(40, TimeUnit.SECONDS), "still running 40 s after SIGTERM");
        assertEquals(0, scaler.exitValue(), log("only"));
        assertTrue(Duration.between(signalled, Instant.now()).toMillis() >= 1500, "it waited for the command");
        assertTrue(power.calls().contains("end on vm1"), "the command in flight finished: " + power.calls());
        ScalerStateDocument state = store.read(new DocumentKey("rack", ScalerStateDocument.idFor("rack")),
                ScalerStateDocument.class).orElseThrow().document();
        InstanceRecord vm1 = state.instance("vm1").orElseThrow();
        assertTrue(vm1.startedByHpcscale() && vm1.booting(), "the start is recorded: " + vm1);
        assertNull(vm1.pending());
        assertTrue(store.inPool(DocumentType.EVENTS, "rack", EventDocument.class).stream()
                .anyMatch(e -> e.action().equals("start") && e.instances().equals(List.of("vm1"))
                        && e.outcome().equals("ok")));
        assertTrue(lease().orElseThrow().released(), "the lease was given up for a standby");
        assertFalse(ProcessHandle.allProcesses().anyMatch(p -> p.info().commandLine().orElse("")
                .contains(power.dir().toString())), "no power command is left running");
        assertTrue(log("only").contains("SIGTERM"), log("only"));
    }
}
