package io.hpcscale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.VmShape;
import io.hpcscale.scaler.run.CycleOutcome;
import io.hpcscale.simulator.SimJob;
import io.hpcscale.simulator.SimulatedCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One scaler cycle over 1,000 pools, 100,000 jobs and 10,000 instances: the documents read from the store, each
 * pool's instances listed and its plan made. The cluster gets there the way a real one does, through the real agent
 * and scaler: jobs submitted, instances started and booted, jobs running on them and the rest queued. Then the same
 * with constraints on every job, as the agents write them into the jobs documents: a handful of distinct ones (a
 * cluster's queues and job scripts share them), and, the worst case, a different one on every job. Last, every pool
 * with {@code demand = backfill}, whose forecast reads each queued job's time limit and each running job's start.
 */
class PlannerBenchmark {
    private static final int POOLS = 1_000;
    private static final int JOBS_PER_POOL = 100;
    private static final int INSTANCES_PER_POOL = 10;

    /** Constraints of the kinds the agents write: PBS select resources, Slurm features, the library's terms. */
    private static final List<String> CONSTRAINTS = List.of(
            "[{\"ib\":true}]",
            "[{\"ncpus\":8,\"mem\":\"memory::16g\"}]",
            "[{\"node.location\":\"eastus\",\"node.spot\":false}]",
            "[{\"or\":[{\"node.vm_size\":\"Standard_HB*\"},{\"ib\":true}]}]",
            "[{\"not\":{\"node.gpu_count\":1}},{\"scratch\":\"size::100g\"}]",
            "[{\"xor\":[{\"node.location\":\"eastus\"},{\"node.location\":\"westus2\"}]}]",
            "[{\"project\":[\"open\",\"cfd\"]},{\"exclusive\":false}]",
            "[{\"and\":[{\"ib\":true},{\"ncpus\":4}]}]");

    @Test
    void scalerCycleOverOneThousandPools() throws Exception {
        SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
        SimulatedCluster cluster = cluster(clock, "queued");
        Measure.report("machine: " + Measure.machine());
        measure(cluster, clock, "no constraints");

        List<JobDocument> jobs = cluster.documents().all(DocumentType.JOBS, JobDocument.class);
        List<JobDocument> constrained = new ArrayList<>(jobs.size());
        for (int i = 0; i < jobs.size(); i++) {
            constrained.add(withConstraints(jobs.get(i), CONSTRAINTS.get(i % CONSTRAINTS.size())));
        }
        cluster.documents().upsert(constrained);
        measure(cluster, clock, "constraints on every job, " + CONSTRAINTS.size() + " distinct");

        List<JobDocument> distinct = new ArrayList<>(jobs.size());
        for (JobDocument job : jobs) {
            distinct.add(withConstraints(job, "[{\"ib\":true,\"ncpus\":"
                    + (Math.floorMod(job.schedulerId().hashCode(), 8) + 1)
                    + "},{\"or\":[{\"node.spot\":false},{\"tag\":\"" + job.schedulerId() + "\"}]}]"));
        }
        cluster.documents().upsert(distinct);
        measure(cluster, clock, "constraints on every job, each different");
    }

    @Test
    void scalerCycleOverOneThousandPoolsForecastingBackfill() throws Exception {
        SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
        SimulatedCluster cluster = cluster(clock, "backfill");
        Measure.report("machine: " + Measure.machine());
        measure(cluster, clock, "demand = backfill");
    }

    private static JobDocument withConstraints(JobDocument job, String constraints) {
        return new JobDocument(job.id(), job.poolName(), job.schedulerId(), job.queueName(), job.status(),
                job.nodes(), job.chunks(), job.placement(), job.exclusive(), job.submittedAt(), job.agent(),
                job.waitingFor(), constraints);
    }

    private static SimulatedCluster cluster(SettableClock clock, String demand) throws Exception {
        List<PoolConfig> pools = new ArrayList<>();
        for (int p = 0; p < POOLS; p++) {
            pools.add(PoolConfigs.withDefaults(String.format("pool%04d", p), new VmShape(16, 65536, 0),
                    INSTANCES_PER_POOL, Map.of("vmSize", "Standard_HB120rs_v3", "node.location", "eastus",
                            "resource.ib", "true", "resource.scratch", "size::1t", "resource.project", "cfd",
                            "demand", demand)));
        }
        SimulatedCluster cluster = new SimulatedCluster(clock, new InMemoryClusterLoadStore(clock),
                new SimulatedCluster.Spec(pools, INSTANCES_PER_POOL, Duration.ofMinutes(3), Duration.ofMinutes(6),
                        Duration.ofDays(1)));
        for (PoolConfig pool : pools) {
            for (int j = 0; j < JOBS_PER_POOL; j++) {
                cluster.scheduler().submit(new SimJob(pool.name() + "-job" + j, pool.name(), clock.instant(),
                        1 + j % 3, Duration.ofHours(2), Duration.ofHours(4), false));
            }
        }
        cluster.agentCycle();
        cluster.scalerCycle();
        clock.advance(Duration.ofMinutes(4));
        cluster.agentCycle();
        clock.advance(Duration.ofMinutes(1));
        // Steady state: the scaler has seen the nodes report in, so the measured cycles are not each its first.
        cluster.scalerCycle();
        return cluster;
    }

    private static void measure(SimulatedCluster cluster, SettableClock clock, String what) throws Exception {
        int jobs = cluster.documents().store().queryByType(DocumentType.JOBS).size();
        int vms = cluster.documents().store().queryByType(DocumentType.VMS).size();
        int instances = cluster.cloud().activeInstances();
        assertEquals(POOLS * JOBS_PER_POOL, jobs);
        assertEquals(POOLS * INSTANCES_PER_POOL, instances);

        Measure.Timing cycle = Measure.time(3, 9, () -> {
            CycleOutcome outcome = cluster.scaler().planOnly(clock.instant());
            assertNull(outcome.error());
            assertEquals(POOLS, outcome.pools().size());
        });
        Measure.Timing read = Measure.time(3, 9, () -> {
            cluster.documents().all(DocumentType.JOBS, JobDocument.class);
            cluster.documents().all(DocumentType.VMS, VmDocument.class);
        });
        Measure.report(String.format("planner, %s: one scaler cycle (read documents, list instances, plan) over %d "
                + "pools, %d jobs (%d running), %d vms, %d instances: %s (goal: <= 200 ms)", what, POOLS, jobs,
                cluster.scheduler().runningJobs(), vms, instances, cycle));
        Measure.report("planner, " + what + ": of which reading the jobs and vms from the in-memory store: " + read);
    }
}
