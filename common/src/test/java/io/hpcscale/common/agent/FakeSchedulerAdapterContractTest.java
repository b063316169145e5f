package io.hpcscale.common.agent;

import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/** The fake scheduler keeps the contract the real ones keep, so that tests built on it say something true. */
class FakeSchedulerAdapterContractTest extends SchedulerAdapterContract {
    private final FakeSchedulerAdapter scheduler = new FakeSchedulerAdapter()
            .putNode(FakeSchedulerAdapter.freeNode("n1", "workq", 4))
            .putJob(job("1.server"));

    private static SchedulerJob job(String id) {
        return new SchedulerJob(id, List.of("workq"), JobState.Queued, List.of(new Chunk(1, 4, 1024, 0)), 1,
                Placement.free, false, Instant.parse("2026-11-22T09:00:00Z"), List.of());
    }

    @Override
    protected SchedulerAdapter adapter() {
        return scheduler;
    }

    @Override
    protected String idleNode() {
        return "n1";
    }

    @Override
    protected void offlineByAdministrator(String node, String comment) {
        scheduler.putNode(FakeSchedulerAdapter.withOffline(scheduler.node(node), true, false));
    }

    @Override
    protected String listAnUnreadableJob() {
        scheduler.putJob(job("2.server")).unreadableJobs(Set.of("2.server"));
        return "2.server";
    }
}
