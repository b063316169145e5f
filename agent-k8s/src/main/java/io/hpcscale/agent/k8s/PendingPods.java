package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.Pod;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import java.time.Instant;
import java.util.List;

/**
 * Pods the scheduler could not place, each a job of one chunk: what it requests, in the pools it chooses. Running
 * pods are no jobs: they are the busy work of their nodes.
 */
final class PendingPods {
    private final K8sSettings settings;
    private final PoolChoice pools;

    PendingPods(K8sSettings settings, PoolChoice pools) {
        this.settings = settings;
        this.pools = pools;
    }

    /** @throws IllegalArgumentException a request that is not a quantity */
    SchedulerJob job(Pod pod) {
        PodRequests requests = PodRequests.of(pod.getSpec(), settings.gpuResources());
        return new SchedulerJob(PodKinds.id(pod), pools.of(pod.getSpec()), JobState.Queued,
                List.of(requests.chunk(1)), 1, Placement.free, false, created(pod.getMetadata()
                        .getCreationTimestamp()));
    }

    static Instant created(String timestamp) {
        return timestamp == null ? null : Instant.parse(timestamp);
    }
}
