package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.match.Constraint;
import io.hpcscale.scaler.match.PoolFit;
import io.hpcscale.scaler.plan.DemandCalculator.Capacity;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pool as the scheduler's backfilling sees it ({@code demand = backfill}), read from this cycle's view for
 * {@link BackfillForecast}: the room at the pool's max, what running jobs hold until when, and the queue in order.
 */
final class PoolReservation {
    private PoolReservation() {
    }

    /**
     * The queued jobs the scheduler's backfilling would hold behind a reservation with every node of the pool up:
     * what is free on nodes in service and booting, and every node the pool may still start or add; what running
     * jobs hold on nodes, until their expected ends, and nodes out of service until a time not known. Jobs that can
     * never run in the pool are left to the calculator, which reports them; held ones ({@code countHeldJobs}) are not
     * the scheduler's to start, and stay demand; gangs left out of this cycle's demand are still in the scheduler's
     * queue, and keep their place in it.
     *
     * <p>Nothing is held while a job shares a node: counted in CPUs, a job could seem to fit where no node has room
     * for it, and take room from a job that would start.
     */
    static Demand.Reservation of(PoolView view, List<Capacity> capacity, int newNodesAllowed, PoolFit fit) {
        PoolConfig pool = view.pool();
        int nodeCpus = pool.shape().cpus();
        long room = (long) newNodesAllowed * nodeCpus;
        for (Capacity free : capacity) {
            room += free.cpus();
        }
        Map<String, Instant> endByJob = new HashMap<>();
        for (JobDocument job : view.state().jobs()) {
            if (job.status() == JobState.Running) {
                endByJob.put(job.schedulerId(), job.times().expectedEnd());
            }
        }
        List<BackfillForecast.Release> releases = new ArrayList<>();
        for (Instance instance : view.running()) {
            VmDocument vm = view.inService(instance);
            if (vm == null) {
                releases.add(new BackfillForecast.Release(nodeCpus, null, false));
                continue;
            }
            int total = vm.cpusTotal() > 0 ? vm.cpusTotal() : nodeCpus;
            long held = vm.exclusive() ? total : vm.cpusTotal() > 0 ? Math.min(total, vm.cpusUsed()) : 0;
            if (held > 0 && held < total) {
                return Demand.Reservation.NONE;
            }
            if (held > 0) {
                Instant end = lastEnd(vm.jobIds(), endByJob);
                releases.add(new BackfillForecast.Release(held, end, end != null && vm.jobIds().size() == 1));
            }
        }
        for (int i = 0; i < view.unknownCount(); i++) {
            releases.add(new BackfillForecast.Release(nodeCpus, null, false));
        }
        DemandCalculator calculator = new DemandCalculator(pool.shape(), pool.max(), fit);
        List<JobDocument> queued = view.consideredJobs().stream()
                .filter(job -> job.status() == JobState.Queued && calculator.whyNever(job) == null)
                .sorted(BackfillForecast.queueOrder()).toList();
        List<BackfillForecast.Queued> queue = new ArrayList<>(queued.size());
        for (JobDocument job : queued) {
            if (!wholeNodes(job, fit)) {
                return Demand.Reservation.NONE;
            }
            queue.add(new BackfillForecast.Queued(job.schedulerId(), (long) job.chunkCount() * nodeCpus,
                    job.times().limit()));
        }
        return BackfillForecast.of(queue, room, releases, view.now(), pool.backfillWindow());
    }

    /** When the last of a node's jobs is expected to end; null when any of them cannot be foreseen. */
    private static Instant lastEnd(List<String> jobIds, Map<String, Instant> endByJob) {
        if (jobIds.isEmpty()) {
            return null;
        }
        Instant last = Instant.MIN;
        for (String id : jobIds) {
            Instant end = endByJob.get(id);
            if (end == null) {
                return null;
            }
            last = end.isAfter(last) ? end : last;
        }
        return last;
    }

    /** The job has each of its nodes to itself: it takes whole nodes, whatever CPUs it asks. */
    private static boolean wholeNodes(JobDocument job, PoolFit fit) {
        return job.exclusive() || fit.constraintOf(job).exclusivity() != Constraint.Exclusivity.SHARED;
    }
}
