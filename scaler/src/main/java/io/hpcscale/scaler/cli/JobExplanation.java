package io.hpcscale.scaler.cli;

import io.hpcscale.common.config.Durations;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.scaler.match.Constraint;
import io.hpcscale.scaler.match.JobMatching;
import io.hpcscale.scaler.match.PoolFit;
import io.hpcscale.scaler.plan.PoolDemand;
import io.hpcscale.scaler.pool.DemandModel;
import io.hpcscale.scaler.run.PoolRuntime;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Why a job does or does not go to each pool of its queue, as CycleCloud's library's dry run ({@code azscale
 * analyze}) tells it: per pool, in the order the job tries them, whether the pool's node meets the job's constraints
 * and its shape fits the job's chunks, and if not why, in the library's words.
 */
final class JobExplanation {
    private final JobMatching matching;

    JobExplanation(JobMatching matching) {
        this.matching = matching;
    }

    void print(JobDocument job, List<PoolRuntime> group, PrintWriter out) {
        out.printf("job %s in queue %s (pool %s), %s: %s%n", job.schedulerId(), job.queueName(), job.poolName(),
                job.status(), asks(job));
        Constraint constraint = matching.constraintOf(job);
        out.printf("  constraints: %s%n", constraint == Constraint.NONE ? "none" : constraint.describe());
        if (job.status() == JobState.Waiting) {
            out.printf("  it waits for something other than nodes%s: no pool starts a node for it%n",
                    job.waitingFor() == null ? "" : " (" + job.waitingFor() + ")");
        } else if (job.status() != JobState.Queued) {
            out.printf("  it is not queued: no pool starts a node for it%n");
        }
        if (group.isEmpty()) {
            out.printf("  no pool of this scaler serves pool %s%n", job.poolName());
            return;
        }
        boolean taken = false;
        for (PoolRuntime pool : group) {
            if (pool.config().shape() == null) {
                out.printf("  %-14s its VM shape is not known yet: cannot say%n", pool.name());
                continue;
            }
            PoolFit fit = matching.forPool(pool.node());
            String why = PoolDemand.whyNever(pool.config(), fit, job);
            Object size = fit.node().property("vm_size");
            Double price = pool.pricePerHour();
            String verdict = why != null ? "no: " + why
                    : taken ? "matches and fits (a pool before it is tried first)"
                            : pool.config().demand() == DemandModel.BACKFILL
                                    ? "matches and fits: the job's nodes start here once the scheduler's backfilling "
                                            + "would start it, unless the pool is at max or in backoff"
                                    : "matches and fits: the job's nodes start here, unless the pool is at max or in "
                                            + "backoff";
            out.printf("  %-14s %-22s %-10s %s%n", pool.name(), size == null ? "" : size,
                    price == null ? "" : String.format(Locale.ROOT, "%.2f/h", price), verdict);
            taken |= why == null;
        }
        if (!taken) {
            out.printf("  no pool of the queue can ever run it%n");
        }
    }

    private static String asks(JobDocument job) {
        String chunks = job.chunks().stream().map(JobExplanation::chunk).collect(Collectors.joining(" + "));
        return chunks + "; " + job.placement() + (job.exclusive() ? ", exclusive" : "")
                + (job.times().limit() == null ? "" : "; time limit " + Durations.format(job.times().limit()));
    }

    private static String chunk(Chunk c) {
        return c.count() + " x (" + c.cpus() + " CPUs, " + c.memoryMb() + " MiB, " + c.gpus() + " GPUs)";
    }
}
