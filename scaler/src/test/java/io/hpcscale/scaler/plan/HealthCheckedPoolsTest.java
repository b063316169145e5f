package io.hpcscale.scaler.plan;

import static io.hpcscale.scaler.plan.PoolStateBuilder.NOW;
import static io.hpcscale.scaler.plan.PoolStateBuilder.id;
import static io.hpcscale.scaler.plan.PoolStateBuilder.node;
import static io.hpcscale.scaler.plan.PoolStateBuilder.vm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.HealthDocument.State;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.StopKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A pool with {@code healthCheck}: nodes serve once their check passed, and those that fail it are replaced. */
class HealthCheckedPoolsTest {
    private static final Instant STARTED = NOW.minus(Duration.ofMinutes(4));

    /** Instance 1, started by hpcscale four minutes ago, running; its node reports in, held out of service. */
    private static PoolStateBuilder bootedAndReported(String healthCheck) {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.RUNNING);
        pool.healthCheck = healthCheck;
        pool.booting(1, STARTED);
        pool.vms.add(vm(1, NodeJobStatus.Free, 0, List.of(), true, false, null, null));
        return pool;
    }

    @Test
    void aNodeWhoseCheckFailedIsDrainedThenReplacedAsAFailedBoot() {
        PoolStateBuilder pool = bootedAndReported("/usr/sbin/nhc");
        pool.health(node(1), State.FAILED, "ERROR:  nhc:  Health check failed:  check_hw_ib:  No IB port is ACTIVE",
                STARTED.plusSeconds(90));
        Plan plan = pool.plan().plan();
        assertEquals(1, plan.drains().size(), "drained first, so nothing lands on it before the stop");
        assertTrue(plan.drains().get(0).reason().contains("No IB port is ACTIVE"), plan.drains().get(0).reason());

        pool.drain(1, NOW.minusSeconds(30));
        pool.replaceVm(1, vm(1, NodeJobStatus.Free, 0, List.of(), true, false, null, NOW.minusSeconds(30)));
        plan = pool.plan().plan();
        assertEquals(1, plan.stops().size());
        assertEquals(StopKind.UNHEALTHY, plan.stops().get(0).kind());
        assertEquals(EventKind.UNHEALTHY, plan.stops().get(0).event());
        assertTrue(StopKind.UNHEALTHY.failedBoot(), "counted with the boot timeouts towards protection");
    }

    @Test
    void aNodeWhoseCheckIsRunningIsStillBootingUntilItPassed() {
        PoolStateBuilder pool = bootedAndReported("/usr/sbin/nhc");
        pool.health(node(1), State.PENDING, null, STARTED.plusSeconds(60));
        pool.queued("j", 16);
        PlanResult result = pool.plan();
        assertNotNull(result.state().bootingSince(id(1)), "the boot is not done until the check passed");
        assertTrue(result.plan().stops().isEmpty() && result.plan().drains().isEmpty());

        pool.health(node(1), State.PASSED, "", STARTED.plusSeconds(120));
        result = pool.plan();
        assertNull(result.state().bootingSince(id(1)), "passed: booted");
    }

    @Test
    void aNodeWithNoPassingCheckWithinTheBootTimeoutIsReplacedSayingWhy() {
        PoolStateBuilder pool = bootedAndReported("/usr/sbin/nhc");
        pool.booting(1, NOW.minus(Duration.ofHours(1)));
        Plan plan = pool.plan().plan();
        assertEquals(1, plan.drains().size());
        assertTrue(plan.drains().get(0).reason().contains("is the hpcscale-node service enabled"),
                plan.drains().get(0).reason());
    }

    @Test
    void aPoolWithoutACheckIgnoresHealthDocuments() {
        PoolStateBuilder pool = bootedAndReported(null);
        pool.vms.set(0, vm(1, NodeJobStatus.Free, 0, List.of(), false, false, null, null));
        pool.health(node(1), State.FAILED, "from another configuration", STARTED.plusSeconds(90));
        PlanResult result = pool.plan();
        assertNull(result.state().bootingSince(id(1)), "booted as soon as it reported");
        assertTrue(result.plan().drains().isEmpty());
    }
}
