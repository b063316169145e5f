package io.hpcscale.agent.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The quick check between full reads: a watch of the pods no node holds, and a list where there is none. */
class K8sQuickCheckTest {
    private static MockCluster cluster;
    /** A new one for each test: its watch is its own. */
    private K8sAdapter adapter;

    @BeforeAll
    static void start() {
        cluster = MockCluster.start(false);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @BeforeEach
    void newAdapter() {
        adapter = new K8sAdapter(cluster.admin, K8sTestSettings.of(Map.of()), Clock.systemUTC());
    }

    @AfterEach
    void clear() {
        cluster.clear();
    }

    private static void eventually(String what, Callable<Boolean> done) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (!done.call()) {
            assertTrue(Instant.now().isBefore(deadline), "not within 10 s: " + what);
            Thread.sleep(50);
        }
    }

    @Test
    void beforeAnyFullReadAListOfThePendingPodsIsTheSignature() throws Exception {
        String before = adapter.quickSignature().orElseThrow();
        assertEquals(before, adapter.quickSignature().orElseThrow(), "nothing changed");
        cluster.unschedulable(cluster.pod("batch", "new", "4", "1Gi"));
        assertNotEquals(before, adapter.quickSignature().orElseThrow());
    }

    @Test
    void afterAFullReadAWatchCountsWhatHappensToPendingPodsAndCostsNothingMeanwhile() throws Exception {
        cluster.unschedulable(cluster.pod("batch", "waiting", "4", "1Gi"));
        adapter.read();
        Thread.sleep(300);
        String quiet = adapter.quickSignature().orElseThrow();
        assertTrue(quiet.startsWith("watch:"), quiet);
        int requests = cluster.requests();
        assertEquals(quiet, adapter.quickSignature().orElseThrow(), "the pod listed by the read is no news");
        assertEquals(requests, cluster.requests(), "a quick check on the watch makes no request");

        cluster.unschedulable(cluster.pod("batch", "new", "4", "1Gi"));
        eventually("a new pending pod changes the signature",
                () -> !quiet.equals(adapter.quickSignature().orElseThrow()));
    }

    @Test
    void aWatchTheApiServerEndsWith410GoneAsksForAFullReadWhichWatchesAgain() throws Exception {
        // The watch the first read starts, from the resourceVersion the pods are listed at, is ended by the server.
        String version = cluster.admin.pods().inAnyNamespace().list().getMetadata().getResourceVersion();
        cluster.goneOnWatch("/api/v1/pods?allowWatchBookmarks=true&fieldSelector=spec.nodeName%3D"
                + "&resourceVersion=" + version + "&watch=true");
        adapter.read();
        String watched = "watch:1:0";
        eventually("the quick check falls back to a list once the watch is gone",
                () -> !adapter.quickSignature().orElseThrow().startsWith("watch:"));
        assertNotEquals(watched, adapter.quickSignature().orElseThrow(), "a changed signature: the agent reads in "
                + "full");

        adapter.read();
        assertEquals("watch:2:0", adapter.quickSignature().orElseThrow(), "the full read watched again");
    }
}
