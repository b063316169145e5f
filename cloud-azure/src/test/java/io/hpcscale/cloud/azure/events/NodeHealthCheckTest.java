package io.hpcscale.cloud.azure.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.HealthDocument.State;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The node's health check of its boot, with real commands as the unit hpcscale-node-check runs them. */
class NodeHealthCheckTest {
    private final DocumentStore store = new DocumentStore(new InMemoryClusterLoadStore(Clock.systemUTC()));
    private final NodeHealthCheck check = new NodeHealthCheck(new ZtExecCommandRunner(), store, Clock.systemUTC(),
            "hb-7");

    private Optional<HealthDocument> stored() {
        return store.read(HealthDocument.keyFor("hb-7"), HealthDocument.class).map(DocumentStore.Versioned::document);
    }

    @Test
    void aCheckThatExitsZeroPasses() throws Exception {
        HealthDocument result = check.run("echo 'checking 8 GPUs'; true", Duration.ofSeconds(10), Duration.ZERO);
        assertEquals(State.PASSED, result.state());
        assertEquals(State.PASSED, stored().orElseThrow().state());
        assertEquals("checking 8 GPUs", result.output());
    }

    @Test
    void aFailingCheckKeepsWhatItPrintedOnEitherStreamAndItsStatus() throws Exception {
        HealthDocument result = check.run("echo 'Running check: check_hw_ib'; "
                + "echo 'ERROR:  nhc:  Health check failed:  check_hw_ib:  No IB port mlx5_ib0:1 is ACTIVE' >&2; "
                + "exit 1", Duration.ofSeconds(10), Duration.ZERO);
        assertEquals(State.FAILED, result.state());
        assertTrue(result.output().startsWith("exit status 1\nRunning check"), result.output());
        assertEquals("health check failed: ERROR:  nhc:  Health check failed:  check_hw_ib:  No IB port mlx5_ib0:1 is "
                + "ACTIVE", result.holdReason(), "the last line, where the check says what failed");
    }

    @Test
    void aCheckThatHangsIsStoppedAndFails() throws Exception {
        HealthDocument result = check.run("sleep 30", Duration.ofSeconds(1), Duration.ZERO);
        assertEquals(State.FAILED, result.state());
        assertTrue(result.output().contains("node.healthCheckTimeout"), result.output());
    }

    @Test
    void theCheckIsPendingWhileItRunsAndAFailedNodeWaitsUntilTheAgentHoldsIt() throws Exception {
        CompletableFuture<HealthDocument> running = CompletableFuture.supplyAsync(() -> {
            try {
                return check.run("sleep 1; exit 3", Duration.ofSeconds(10), Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(300);
        assertEquals(State.PENDING, stored().orElseThrow().state(), "written before the check runs");
        while (stored().orElseThrow().state() == State.PENDING) {
            Thread.sleep(100);
        }
        Thread.sleep(500);
        assertTrue(!running.isDone(), "failed: it waits for the agent before the daemon may start");
        store.upsert(List.of(stored().orElseThrow().heldAt(java.time.Instant.now())));
        HealthDocument result = running.get(10, TimeUnit.SECONDS);
        assertEquals(State.FAILED, result.state());
        assertNotNull(stored().orElseThrow().heldAt());
    }
}
