package io.hpcscale.scaler.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import io.hpcscale.scaler.plan.DemandCalculator.Capacity;
import io.hpcscale.scaler.plan.DemandCalculator.Kind;
import io.hpcscale.scaler.match.JobMatching;
import io.hpcscale.scaler.pool.PoolNode;
import io.hpcscale.scaler.pool.VmShape;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How queued jobs are packed onto capacity: instances of 16 CPUs, 64 GiB and 2 GPUs, max 10. */
class DemandCalculatorTest {
    private static final Instant SUBMITTED = Instant.parse("2026-11-22T11:00:00Z");

    private final DemandCalculator calculator = new DemandCalculator(new VmShape(16, 65536, 2), 10,
            JobMatching.jobsOnly().forPool(PoolNode.of("pool", new VmShape(16, 65536, 2), Map.of(), Map.of(),
                    Map.of())));
    private final List<JobDocument> jobs = new ArrayList<>();
    private final List<Capacity> capacity = new ArrayList<>();

    private DemandCalculatorTest job(String id, Placement placement, boolean exclusive, Chunk... chunks) {
        return job(id, SUBMITTED.plusSeconds(jobs.size()), placement, exclusive, chunks);
    }

    private DemandCalculatorTest job(String id, Instant submitted, Placement placement, boolean exclusive,
            Chunk... chunks) {
        int nodes = 0;
        for (Chunk chunk : chunks) {
            nodes += chunk.count();
        }
        jobs.add(new JobDocument(id, "p", id, "p", JobState.Queued, nodes, List.of(chunks), placement, exclusive,
                submitted, "agent-h-pbs"));
        return this;
    }

    private DemandCalculatorTest cpus(String id, int cpus) {
        return job(id, Placement.free, false, Chunk.ofCpus(1, cpus));
    }

    /** A running node with this much room left; partly used unless {@code empty}. */
    private DemandCalculatorTest running(String node, int cpus, long memoryMb, int gpus, boolean empty) {
        capacity.add(new Capacity(node, Kind.RUNNING, cpus, memoryMb, gpus, empty));
        return this;
    }

    private Demand compute(int newNodesAllowed) {
        return calculator.compute(jobs, capacity, newNodesAllowed);
    }

    @Test
    void placesTheLargestJobsFirstSoThatSmallOnesFillTheGaps() {
        cpus("a", 5).cpus("b", 5).cpus("c", 5).cpus("d", 11).cpus("e", 11).cpus("f", 11);
        assertEquals(3, compute(10).newNodes(), "11 + 5 on each of three nodes, not 5 + 5 + 5 and three 11s");
    }

    @Test
    void placesAJobsLargestChunksFirst() {
        job("mixed", Placement.free, false, Chunk.ofCpus(3, 5), Chunk.ofCpus(3, 11));
        assertEquals(3, compute(10).newNodes());
    }

    @Test
    void amongEquallyLargeJobsTheEarliestSubmittedIsPlacedFirst() {
        running("n1", 8, 65536, 0, false).running("n2", 8, 2048, 0, false);
        Instant early = SUBMITTED;
        Instant late = SUBMITTED.plusSeconds(60);
        job("b-large-memory", early, Placement.free, false, new Chunk(1, 8, 60000, 0));
        job("a-small-memory", late, Placement.free, false, new Chunk(1, 8, 1024, 0));
        Demand demand = compute(0);
        assertEquals(0, demand.jobsBeyondMax(), "the early job takes the node with the memory, the late one fits n2");
        assertEquals(Set.of("n1", "n2"), demand.nodesInUse());

        jobs.clear();
        job("b-large-memory", late, Placement.free, false, new Chunk(1, 8, 60000, 0));
        job("a-small-memory", early, Placement.free, false, new Chunk(1, 8, 1024, 0));
        assertEquals(1, compute(0).jobsBeyondMax(), "now the small job comes first and takes n1");
    }

    @Test
    void theOutcomeDoesNotDependOnTheOrderJobsAreListedIn() {
        running("n1", 8, 65536, 0, false).running("n2", 8, 2048, 0, false);
        JobDocument large = new JobDocument("a", "p", "a", "p", JobState.Queued, 1, List.of(new Chunk(1, 8, 60000, 0)),
                Placement.free, false, SUBMITTED, "agent-h-pbs");
        JobDocument small = new JobDocument("b", "p", "b", "p", JobState.Queued, 1, List.of(new Chunk(1, 8, 1024, 0)),
                Placement.free, false, SUBMITTED, "agent-h-pbs");
        assertEquals(0, calculator.compute(List.of(large, small), capacity, 0).jobsBeyondMax());
        assertEquals(0, calculator.compute(List.of(small, large), capacity, 0).jobsBeyondMax());
    }

    @Test
    void aChunkFitsTheExactRoomLeftOnARunningNodeButNoMore() {
        running("n1", 8, 32768, 1, false);
        job("exact", Placement.free, false, new Chunk(1, 8, 32768, 1));
        Demand demand = compute(10);
        assertEquals(0, demand.newNodes());
        assertEquals(Set.of("n1"), demand.nodesInUse());

        capacity.clear();
        running("n1", 8, 32768, 1, false);
        jobs.clear();
        cpus("wide", 16);
        demand = compute(10);
        assertEquals(1, demand.newNodes());
        assertTrue(demand.nodesInUse().isEmpty());
    }

    @Test
    void memoryAndGpusFillANodeAsCpusDo() {
        job("m1", Placement.free, false, new Chunk(1, 4, 40000, 0));
        job("m2", Placement.free, false, new Chunk(1, 4, 40000, 0));
        assertEquals(2, compute(10).newNodes(), "64 GiB holds one 40 GB job");
        jobs.clear();
        job("g1", Placement.free, false, new Chunk(1, 4, 0, 2));
        job("g2", Placement.free, false, new Chunk(1, 4, 0, 2));
        assertEquals(2, compute(10).newNodes(), "two GPUs per instance");
    }

    @Test
    void atMaxAJobIsPlacedOnRoomLeftAndOtherwiseWaitsWithoutANewNode() {
        running("n1", 4, 16384, 0, false);
        cpus("small", 4).cpus("large", 16);
        Demand demand = compute(0);
        assertEquals(0, demand.newNodes());
        assertEquals(1, demand.jobsBeyondMax());
        assertEquals(Set.of("n1"), demand.nodesInUse());
    }

    @Test
    void aJobThatCannotBePlacedWhollyWithinMaxPlacesNothing() {
        running("n1", 16, 65536, 2, true);
        job("three", Placement.free, false, Chunk.ofCpus(3, 16));
        cpus("one", 16).cpus("two", 16);
        Demand demand = compute(1);
        assertEquals(1, demand.jobsBeyondMax(), "the three-node job waits");
        assertEquals(1, demand.newNodes(), "the room it would have taken goes to the other two");
        assertEquals(Set.of("n1"), demand.nodesInUse());
    }

    @Test
    void aScatterJobPutsEachChunkOnItsOwnNode() {
        job("scatter", Placement.scatter, false, Chunk.ofCpus(2, 4));
        assertEquals(2, compute(10).newNodes());
        jobs.clear();
        job("free", Placement.free, false, Chunk.ofCpus(2, 4));
        assertEquals(1, compute(10).newNodes());
    }

    @Test
    void aScatterJobFitsExactlyTheNodesLeftUnderMaxOrWaits() {
        running("n1", 16, 65536, 2, true);
        job("scatter", Placement.scatter, false, Chunk.ofCpus(3, 4));
        Demand demand = compute(2);
        assertEquals(2, demand.newNodes());
        assertEquals(0, demand.jobsBeyondMax());
        demand = compute(1);
        assertEquals(0, demand.newNodes());
        assertEquals(1, demand.jobsBeyondMax());
    }

    @Test
    void anExclusiveJobTakesAnEmptyNodeWholeButItsChunksShareIt() {
        running("n1", 12, 49152, 2, false).running("n2", 16, 65536, 2, true);
        job("excl", Placement.free, true, Chunk.ofCpus(2, 4));
        cpus("small", 4).cpus("other", 12);
        Demand demand = compute(10);
        assertEquals(Set.of("n1", "n2"), demand.nodesInUse());
        assertEquals(1, demand.newNodes(), "n2 is the exclusive job's: 12 CPUs left on it are not for others");
        capacity.clear();
        jobs.clear();
        job("excl", Placement.free, true, Chunk.ofCpus(2, 4));
        demand = compute(1);
        assertEquals(1, demand.newNodes());
        assertEquals(0, demand.jobsBeyondMax());
    }

    @Test
    void aPackJobTakesOneNodeForAllItsChunks() {
        running("n1", 4, 16384, 0, false);
        job("p1", Placement.pack, false, Chunk.ofCpus(2, 8));
        job("p2", Placement.pack, false, Chunk.ofCpus(2, 8));
        Demand demand = compute(10);
        assertEquals(2, demand.newNodes());
        assertTrue(demand.nodesInUse().isEmpty());
        demand = compute(1);
        assertEquals(1, demand.newNodes());
        assertEquals(1, demand.jobsBeyondMax());
    }

    @Test
    void saysWhyAJobCanNeverRun() {
        job("empty", Placement.free, false);
        job("memory", Placement.pack, false, new Chunk(2, 4, 40000, 1));
        job("gpus", Placement.pack, false, new Chunk(3, 1, 0, 1));
        job("wide", Placement.scatter, false, Chunk.ofCpus(11, 1));
        Demand demand = compute(10);
        assertEquals(Set.of(
                new Demand.Unsatisfiable("memory", "it needs all its chunks on one node (8 CPUs, 80000 MiB, 2 GPUs) "
                        + "but an instance has 16 CPUs, 65536 MiB, 2 GPUs"),
                new Demand.Unsatisfiable("gpus", "it needs all its chunks on one node (3 CPUs, 0 MiB, 3 GPUs) but an "
                        + "instance has 16 CPUs, 65536 MiB, 2 GPUs"),
                new Demand.Unsatisfiable("wide", "it needs 11 nodes, one per chunk, but the pool's max is 10"),
                new Demand.Unsatisfiable("empty", "it asks for no resources")), Set.copyOf(demand.unsatisfiable()));
        assertEquals(0, demand.newNodes());
    }

    @Test
    void aJobAsLargeAsTheInstanceOrAsWideAsMaxCanRun() {
        job("whole", Placement.free, false, new Chunk(1, 16, 65536, 2));
        job("widest", Placement.scatter, false, Chunk.ofCpus(10, 1));
        Demand demand = compute(20);
        assertTrue(demand.unsatisfiable().isEmpty(), demand.unsatisfiable().toString());
        assertEquals(11, demand.newNodes());
    }
}
