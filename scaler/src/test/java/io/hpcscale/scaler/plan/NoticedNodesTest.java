package io.hpcscale.scaler.plan;

import static io.hpcscale.scaler.plan.PoolStateBuilder.NOW;
import static io.hpcscale.scaler.plan.PoolStateBuilder.id;
import static io.hpcscale.scaler.plan.PoolStateBuilder.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.StopKind;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Nodes the platform announced it will take ({@code NoticeDocument}, written by the node's event watch). */
class NoticedNodesTest {

    @Test
    void aJobRequeuedFromANodeAboutToBeEvictedGetsANewNodeNotTheOldOnesRoom() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minusSeconds(30)).stopped(1);
        pool.spot = true;
        pool.queued("requeued", 16);
        assertEquals(0, pool.plan().plan().demand().newNodes(), "without the notice the free node would take it");

        pool.notice(node(1), "Preempt");
        Plan plan = pool.plan().plan();
        assertEquals(1, plan.demand().newNodes(), "the noticed node takes no job: another is started");
    }

    @Test
    void aNoticedNodeIsNeverDrainedForIdleness() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofHours(1)));
        assertEquals(1, pool.plan().plan().drains().size(), "idle for an hour: drained without a notice");
        pool.notice(node(1), "Freeze");
        assertTrue(pool.plan().plan().drains().isEmpty(), "out of service for the event, not idle");
    }

    @Test
    void anInstanceFoundStoppedAfterAPreemptNoticeIsRecordedAsTheEvictionItWas() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minusSeconds(60)).stopped(1);
        pool.state = pool.state.withInstance(id(1), InstanceRecord.seenActive(NOW.minus(Duration.ofHours(1)), false));
        pool.instances.set(0, new Instance(id(1), node(1), PowerState.STOPPED));
        pool.notice(node(1), "Preempt");

        PlanResult result = pool.plan();

        assertEquals(StopKind.EVICTED, result.state().instance(id(1)).orElseThrow().stopKind(),
                "an eviction, known as one, even where the pool is not configured as Spot");
        assertEquals(1, result.state().evictions());
        assertTrue(result.plan().found().stream().anyMatch(f -> f.kind() == EventKind.EVICTED
                && f.message().contains("Preempt")), result.plan().found().toString());
    }
}
