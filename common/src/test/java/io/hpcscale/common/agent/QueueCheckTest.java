package io.hpcscale.common.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueueCheckTest {
    private final PoolMap pools = new PoolMap(Map.of("workq", "hb120", "gpuqq", "gpu", "nothing-like-it", "odd"),
            Map.of());

    @Test
    void namesEachPoolWhoseQueueTheSchedulerLacksWithTheNearestAndTheQueuesThereAre() {
        List<String> problems = QueueCheck.problems(pools, Set.of("workq", "gpuq", "debug"), "queue");

        assertEquals(List.of(
                "pool gpu serves queue 'gpuqq' (pool.gpu.queue), which the scheduler does not have: did you mean "
                        + "gpuq? Its queues: debug, gpuq, workq.",
                "pool odd serves queue 'nothing-like-it' (pool.odd.queue), which the scheduler does not have. "
                        + "Its queues: debug, gpuq, workq."), problems);
    }

    @Test
    void saysNothingWhenEveryQueueExists() {
        assertEquals(List.of(), QueueCheck.problems(pools, Set.of("workq", "gpuqq", "nothing-like-it"), "queue"));
    }
}
