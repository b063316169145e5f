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
    void afterAFullReadAWatchKeepsThePendingPodsAndCostsNoRequestMeanwhile() throws Exception {
        cluster.unschedulable(cluster.pod("batch", "waiting", "4", "1Gi"));
        cluster.node("vm1", "cpu", 16, "64Gi");
        cluster.running(cluster.pod("batch", "solver", "4", "1Gi"), "vm1");
        adapter.read();
        String quiet = adapter.quickSignature().orElseThrow();
        cluster.admin.pods().inNamespace("batch").withName("solver").edit(p -> {
            p.getMetadata().setLabels(Map.of("progress", "50"));
            return p;
        });
        Thread.sleep(300);
        int requests = cluster.requests();
        assertEquals(quiet, adapter.quickSignature().orElseThrow(), "a running pod's change is no news");
        assertEquals(requests, cluster.requests(), "the check made no request");

        cluster.unschedulable(cluster.pod("batch", "new", "4", "1Gi"));
        eventually("a new pending pod changes the signature",
                () -> !quiet.equals(adapter.quickSignature().orElseThrow()));
        assertEquals(requests + 1, cluster.requests(), "the pod's creation was the only request since");
    }

    @Test
    void aWatchTheApiServerEndsWith410GoneLeavesTheCheckToAListUntilTheNextFullReadWatchesAgain() throws Exception {
        // The watch the first read starts, from the resourceVersion the pods are listed at, is ended by the server.
        String version = cluster.admin.pods().inAnyNamespace().list().getMetadata().getResourceVersion();
        cluster.goneOnWatch("/api/v1/pods?allowWatchBookmarks=true&fieldSelector=spec.nodeName%3D"
                + "&resourceVersion=" + version + "&watch=true");
        adapter.read();
        Thread.sleep(500);
        int requests = cluster.requests();
        String listed = adapter.quickSignature().orElseThrow();
        assertEquals(requests + 1, cluster.requests(), "the watch is gone: the check lists the pods");
        cluster.unschedulable(cluster.pod("batch", "new", "4", "1Gi"));
        assertNotEquals(listed, adapter.quickSignature().orElseThrow(), "and still sees a new pending pod");

        adapter.read();
        Thread.sleep(300);
        requests = cluster.requests();
        adapter.quickSignature();
        assertEquals(requests, cluster.requests(), "the next full read watched again");
    }
}
