package io.hpcscale.scaler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hpcscale.scaler.documents.LeaseDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two {@code hpcscale-scaler run} processes whose clocks are a minute apart, the second run as another host under
 * {@code faketime} (libfaketime shifts what the JVM reads as wall time, and its monotonic clock with it): the lease
 * never has two holders while both live, every start and stop happens once, and when the holder is killed the other
 * takes over within two lease periods. A lease timed by comparing one host's ExpiresAt with another's clock fails both ways: a
 * standby a minute ahead takes the lease from a live holder, one a minute behind waits a minute more.
 */
class ScalerClockSkewProcessTest {
    private static final int INSTANCES = 2;
    /** Long enough that two lease periods leave room for a cycle and the polling on two busy cores. */
    private static final Duration LEASE = Duration.ofSeconds(5);
    private static final String OTHER_HOST = "scaler-b";

    @TempDir
    Path dir;

    private ProcessCluster cluster;
    private final Set<Long> holders = new TreeSet<>();

    @BeforeEach
    void cluster() throws IOException {
        assumeTrue("root".equals(System.getProperty("user.name")), "a second host name (unshare --uts) needs "
                + "root, as the real-Slurm tests do: run the tests as root, as CI does");
        assertTrue(Files.isExecutable(Path.of("/usr/bin/faketime")), "faketime is not installed: run "
                + "scripts/install-test-dependencies as root (Debian package faketime)");
        cluster = new ProcessCluster(dir, INSTANCES, LEASE);
    }

    @AfterEach
    void stop() throws InterruptedException {
        cluster.close();
    }

    @ParameterizedTest(name = "the standby''s clock {0}")
    @ValueSource(strings = {"+60s", "-60s"})
    void scalersAMinuteApartNeverBothHoldTheLeaseAndFailOverWithinTwoLeasePeriods(String skew) throws Exception {
        Process first = cluster.scaler("first", List.of());
        within(Duration.ofSeconds(30), "the first holds the lease", () -> holder().equals(Optional.of(first.pid())));
        // Another host as far as the lease can tell (its own host name, by a UTS namespace), so that only the
        // lease's timing, not the same-host check of a dead holder's process, can let it take over.
        Process second = cluster.scaler("second", List.of("unshare", "--uts", "--", "sh", "-c", "hostname " + OTHER_HOST
                + " && HOSTNAME=" + OTHER_HOST + " exec /usr/bin/faketime -f " + skew + " \"$@\"", "sh"));
        within(Duration.ofSeconds(30), "the second has read the lease", () -> {
            if (!second.isAlive()) {
                fail("the second scaler ended (exit " + second.exitValue() + "):\n" + cluster.log("second"));
            }
            return cluster.log("second").contains("standby: scaler ")
                    || cluster.log("second").contains("now holds the lease");
        });
        watch(Duration.ofSeconds(3 * LEASE.toSeconds()));
        assertEquals(Set.of(first.pid()), holders, "the second took the lease from a live holder:\n"
                + cluster.log("second"));

        cluster.agent.jobs(INSTANCES);
        within(Duration.ofSeconds(60), "every instance on", () -> cluster.power.on("vm1") && cluster.power.on("vm2"));
        cluster.agent.jobs(0);
        within(Duration.ofSeconds(60), "every instance off", () -> !cluster.power.on("vm1") && !cluster.power.on("vm2"));
        watch(Duration.ofSeconds(2));
        assertEquals(Set.of(first.pid()), holders, "only the first held the lease while both ran; the second's "
                + "log:\n" + cluster.log("second"));
        for (int i = 1; i <= INSTANCES; i++) {
            assertEquals(1, cluster.power.begun("on", "vm" + i), "vm" + i + " started once: " + cluster.power.calls());
            assertEquals(1, cluster.power.begun("off", "vm" + i), "vm" + i + " stopped once: " + cluster.power.calls());
        }

        first.destroyForcibly();
        first.waitFor(10, TimeUnit.SECONDS);
        Instant killed = Instant.now();
        // faketime runs the JVM as its child and waits for it: the lease names the JVM's pid.
        long secondJvm = second.toHandle().children().findFirst().orElseThrow().pid();
        within(LEASE.multipliedBy(2).plusSeconds(1), "the second takes over",
                () -> holder().equals(Optional.of(secondJvm)));
        assertTrue(cluster.log("second").contains(OTHER_HOST + ":" + secondJvm), "the second named itself by its own host: "
                + cluster.log("second"));
        Duration takeover = Duration.between(killed, Instant.now());
        assertTrue(takeover.compareTo(LEASE.multipliedBy(2)) <= 0, "took over after " + takeover);
        System.out.printf("standby with its clock %s took over %d ms after the holder was killed (lease %d s)%n",
                skew, takeover.toMillis(), LEASE.toSeconds());
        cluster.agent.jobs(1);
        within(Duration.ofSeconds(30), "the new holder starts an instance", () -> cluster.power.on("vm1"));
        assertEquals(2, cluster.power.begun("on", "vm1"), "started once more, by the new holder: " + cluster.power.calls());
    }

    private Optional<Long> holder() {
        Optional<Long> pid = cluster.lease().filter(lease -> !lease.released()).map(LeaseDocument::pid);
        pid.ifPresent(holders::add);
        return pid;
    }

    /** Notes who holds the lease, every 50 ms, for this long. */
    private void watch(Duration period) throws InterruptedException {
        Instant end = Instant.now().plus(period);
        while (Instant.now().isBefore(end)) {
            holder();
            Thread.sleep(50);
        }
    }

    /** Waits, noting the holder all the while. */
    private void within(Duration timeout, String what, Callable<Boolean> done) throws Exception {
        ProcessCluster.within(timeout, what, () -> {
            holder();
            return done.call();
        });
    }
}
