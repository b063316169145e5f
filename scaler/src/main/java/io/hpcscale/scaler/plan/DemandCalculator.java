package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.Placement;
import io.hpcscale.scaler.match.Constraint;
import io.hpcscale.scaler.match.PoolFit;
import io.hpcscale.scaler.match.Verdict;
import io.hpcscale.scaler.pool.VmShape;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How many nodes the queued jobs need: their chunks are packed first-fit decreasing onto the free capacity of
 * running nodes, then onto instances still booting, then onto drained nodes (whose drains are then withdrawn), and
 * finally onto new nodes of the pool's VM shape. An exclusive job gets nodes no other job uses; a scatter job puts
 * each chunk on its own node; a pack job needs all its chunks on one node. A job that can never fit the VM shape
 * is reported and places nothing, as is one whose constraints the pool's node does not meet
 * ({@link io.hpcscale.scaler.match.PoolFit}); a constraint's {@code exclusive} gives the job nodes of its own, one
 * chunk each.
 */
final class DemandCalculator {

    enum Kind {
        RUNNING,
        BOOTING,
        DRAINING,
        NEW
    }

    /** Free room on a node, or an empty node to be. */
    record Capacity(String node, Kind kind, int cpus, long memoryMb, int gpus, boolean empty) {
    }

    private static final class Bin {
        final String node;
        final Kind kind;
        int cpus;
        long memoryMb;
        int gpus;
        boolean empty;
        String exclusiveOwner;
        boolean received;

        Bin(Capacity capacity) {
            this.node = capacity.node();
            this.kind = capacity.kind();
            this.cpus = capacity.cpus();
            this.memoryMb = capacity.memoryMb();
            this.gpus = capacity.gpus();
            this.empty = capacity.empty();
        }

        boolean fits(Chunk unit) {
            return unit.cpus() <= cpus && unit.memoryMb() <= memoryMb && unit.gpus() <= gpus;
        }

        boolean openTo(String job, boolean exclusive) {
            if (exclusiveOwner != null) {
                return exclusiveOwner.equals(job);
            }
            return !exclusive || empty;
        }

        /** No other job can use it: full, or given whole to an exclusive job. */
        boolean closed() {
            return exclusiveOwner != null || cpus <= 0;
        }

        void take(Chunk unit, String job, boolean exclusive) {
            cpus -= unit.cpus();
            memoryMb -= unit.memoryMb();
            gpus -= unit.gpus();
            empty = false;
            received = true;
            if (exclusive) {
                exclusiveOwner = job;
            }
        }
    }

    /** A bin as it was before one of a job's chunks was placed on it, to undo a job that does not fit. */
    private record Placed(Bin bin, int cpus, long memoryMb, int gpus, boolean empty, String owner,
            boolean received) {

        static Placed before(Bin bin) {
            return new Placed(bin, bin.cpus, bin.memoryMb, bin.gpus, bin.empty, bin.exclusiveOwner, bin.received);
        }

        void restore() {
            bin.cpus = cpus;
            bin.memoryMb = memoryMb;
            bin.gpus = gpus;
            bin.empty = empty;
            bin.exclusiveOwner = owner;
            bin.received = received;
        }
    }

    /** How the job is placed once its constraints are read: exclusive or not, and its placement. */
    private record Asked(JobDocument job, boolean exclusive, Placement placement) {
        String id() {
            return job.schedulerId();
        }
    }

    private final VmShape shape;
    private final int max;
    private final PoolFit fit;

    DemandCalculator(VmShape shape, int max, PoolFit fit) {
        this.shape = shape;
        this.max = max;
        this.fit = fit;
    }


    /**
     * @param newNodesAllowed how many nodes may still be added before the pool reaches its max
     */
    Demand compute(List<JobDocument> jobs, List<Capacity> capacity, int newNodesAllowed) {
        List<Bin> bins = new ArrayList<>();
        capacity.stream()
                .sorted(Comparator.comparing(Capacity::kind).thenComparing(Capacity::empty)
                        .thenComparing(Capacity::node))
                .map(Bin::new)
                .forEach(bins::add);
        List<Bin> open = new ArrayList<>(bins);
        List<Demand.Unsatisfiable> unsatisfiable = new ArrayList<>();
        int newNodes = 0;
        int beyondMax = 0;
        Set<String> onExisting = new HashSet<>();
        Set<String> onNodesUp = new HashSet<>();
        Set<String> notPlaced = new HashSet<>();
        for (JobDocument document : sortedLargestFirst(jobs)) {
            Asked job = asked(document);
            String reason = whyNever(document);
            if (reason != null) {
                unsatisfiable.add(new Demand.Unsatisfiable(document.schedulerId(), reason));
                notPlaced.add(document.schedulerId());
                continue;
            }
            int left = newNodesAllowed - newNodes;
            if (open.isEmpty() && left <= 0) {
                beyondMax++;
                notPlaced.add(job.id());
                continue;
            }
            Set<Bin> used = new HashSet<>();
            int opened = place(job, open, bins, left, used);
            if (opened < 0) {
                beyondMax++;
                notPlaced.add(job.id());
            } else {
                newNodes += opened;
                if (used.stream().noneMatch(bin -> bin.kind == Kind.NEW)) {
                    onExisting.add(job.id());
                }
                if (used.stream().allMatch(bin -> bin.kind == Kind.RUNNING || bin.kind == Kind.DRAINING)) {
                    onNodesUp.add(job.id());
                }
            }
            open.removeIf(Bin::closed);
        }
        Set<String> inUse = new HashSet<>();
        Set<String> drainsToCancel = new HashSet<>();
        for (Bin bin : bins) {
            if (bin.received && (bin.kind == Kind.RUNNING || bin.kind == Kind.BOOTING)) {
                inUse.add(bin.node);
            }
            if (bin.received && bin.kind == Kind.DRAINING) {
                drainsToCancel.add(bin.node);
            }
        }
        return new Demand(jobs.size(), newNodes, inUse, drainsToCancel, unsatisfiable, beyondMax, onExisting,
                notPlaced, onNodesUp);
    }

    /**
     * Places all of a job's chunks or none, first fit among the bins with room; returns the new nodes it opened, or
     * -1 if the pool's max stops it, and adds the bins it used to {@code used}.
     */
    private int place(Asked job, List<Bin> open, List<Bin> bins, int newNodesLeft, Set<Bin> used) {
        boolean exclusive = job.exclusive();
        String id = job.id();
        int unitCount = job.job().chunkCount();
        if (job.placement() == Placement.scatter && unitCount > open.size() + newNodesLeft) {
            return -1;
        }
        List<Chunk> units = units(job.job());
        List<Placed> placed = new ArrayList<>();
        int openBefore = open.size();
        int binsBefore = bins.size();
        if (job.placement() == Placement.pack) {
            Chunk whole = sum(units);
            Bin bin = firstFit(open, whole, id, exclusive, Set.of());
            if (bin == null) {
                bin = newBin(open, bins, newNodesLeft);
            }
            if (bin == null) {
                return -1;
            }
            bin.take(whole, id, exclusive);
            used.add(bin);
            return bins.size() - binsBefore;
        }
        Set<Bin> usedByJob = new HashSet<>();
        for (Chunk unit : units) {
            Set<Bin> excluded = job.placement() == Placement.scatter ? usedByJob : Set.of();
            Bin bin = firstFit(open, unit, id, exclusive, excluded);
            if (bin == null) {
                bin = newBin(open, bins, newNodesLeft - (bins.size() - binsBefore));
            }
            if (bin == null) {
                undo(placed, open, openBefore, bins, binsBefore);
                return -1;
            }
            placed.add(Placed.before(bin));
            bin.take(unit, id, exclusive);
            usedByJob.add(bin);
        }
        used.addAll(usedByJob);
        return bins.size() - binsBefore;
    }

    private static Bin firstFit(List<Bin> bins, Chunk unit, String job, boolean exclusive, Set<Bin> excluded) {
        for (Bin bin : bins) {
            if (bin.fits(unit) && bin.openTo(job, exclusive) && !excluded.contains(bin)) {
                return bin;
            }
        }
        return null;
    }

    private Bin newBin(List<Bin> open, List<Bin> bins, int newNodesLeft) {
        if (newNodesLeft <= 0) {
            return null;
        }
        Bin bin = new Bin(new Capacity(null, Kind.NEW, shape.cpus(), shape.memoryMb(), shape.gpus(), true));
        bins.add(bin);
        open.add(bin);
        return bin;
    }

    private static void undo(List<Placed> placed, List<Bin> open, int openBefore, List<Bin> bins, int binsBefore) {
        for (int i = placed.size() - 1; i >= 0; i--) {
            placed.get(i).restore();
        }
        while (bins.size() > binsBefore) {
            bins.remove(bins.size() - 1);
        }
        while (open.size() > openBefore) {
            open.remove(open.size() - 1);
        }
    }

    /** Why no node of the pool could ever take the job (its constraints, its chunks, its nodes), or null. */
    String whyNever(JobDocument job) {
        String reason = whyItCannotMatch(job);
        return reason != null ? reason : whyItCannotFit(asked(job));
    }

    /** Why the pool's node does not meet the job's constraints, or null when it does. */
    private String whyItCannotMatch(JobDocument job) {
        Verdict verdict = fit.verdict(job);
        return verdict.satisfied() ? null : "its constraints are not met: " + verdict.why();
    }

    /**
     * The job's exclusivity and placement with its constraints: {@code exclusive} puts each chunk on a node of its
     * own, {@code exclusive-task} lets the job's own chunks share its nodes.
     */
    private Asked asked(JobDocument job) {
        Constraint.Exclusivity exclusivity = fit.constraintOf(job).exclusivity();
        boolean exclusive = job.exclusive() || exclusivity != Constraint.Exclusivity.SHARED;
        Placement placement = exclusivity == Constraint.Exclusivity.JOB && job.placement() == Placement.free
                ? Placement.scatter : job.placement();
        return new Asked(job, exclusive, placement);
    }

    private String whyItCannotFit(Asked asked) {
        JobDocument job = asked.job();
        if (job.chunks().isEmpty()) {
            return "it asks for no resources";
        }
        for (Chunk chunk : job.chunks()) {
            if (!fitsShape(chunk)) {
                return "a chunk needs " + describe(chunk) + " but an instance has " + describe(shape);
            }
        }
        if (asked.placement() == Placement.pack && !fitsShape(sum(units(job)))) {
            return "it needs all its chunks on one node (" + describe(sum(units(job)))
                    + ") but an instance has " + describe(shape);
        }
        int nodes = asked.placement() == Placement.scatter || asked.exclusive() ? job.chunkCount() : 0;
        if (asked.placement() == Placement.scatter && nodes > max) {
            return "it needs " + nodes + " nodes, one per chunk, but the pool's max is " + max;
        }
        return null;
    }

    private boolean fitsShape(Chunk chunk) {
        return chunk.cpus() <= shape.cpus() && chunk.memoryMb() <= shape.memoryMb() && chunk.gpus() <= shape.gpus();
    }

    private static List<Chunk> units(JobDocument job) {
        List<Chunk> units = new ArrayList<>(job.chunkCount());
        for (Chunk chunk : job.chunks()) {
            for (int i = 0; i < chunk.count(); i++) {
                units.add(new Chunk(1, chunk.cpus(), chunk.memoryMb(), chunk.gpus()));
            }
        }
        units.sort(Comparator.comparingInt(Chunk::cpus).thenComparingLong(Chunk::memoryMb)
                .thenComparingInt(Chunk::gpus).reversed());
        return units;
    }

    private static Chunk sum(List<Chunk> units) {
        int cpus = 0;
        long memory = 0;
        int gpus = 0;
        for (Chunk unit : units) {
            cpus += unit.cpus();
            memory += unit.memoryMb();
            gpus += unit.gpus();
        }
        return new Chunk(1, cpus, memory, gpus);
    }

    /** Largest chunk first, then most CPUs, then earliest submitted; keys computed once per job. */
    private static List<JobDocument> sortedLargestFirst(List<JobDocument> jobs) {
        record Keyed(JobDocument job, int largestChunk, long totalCpus) {
        }
        List<Keyed> keyed = new ArrayList<>(jobs.size());
        for (JobDocument job : jobs) {
            int largest = 0;
            for (Chunk chunk : job.chunks()) {
                largest = Math.max(largest, chunk.cpus());
            }
            keyed.add(new Keyed(job, largest, job.totalCpus()));
        }
        keyed.sort(Comparator.comparingInt(Keyed::largestChunk).reversed()
                .thenComparing(Comparator.comparingLong(Keyed::totalCpus).reversed())
                .thenComparing(k -> k.job().submittedAt(), Comparator.nullsLast(Instant::compareTo))
                .thenComparing(k -> k.job().schedulerId()));
        List<JobDocument> sorted = new ArrayList<>(keyed.size());
        keyed.forEach(k -> sorted.add(k.job()));
        return sorted;
    }

    private static String describe(Chunk chunk) {
        return chunk.cpus() + " CPUs, " + chunk.memoryMb() + " MiB, " + chunk.gpus() + " GPUs";
    }

    private static String describe(VmShape shape) {
        return shape.cpus() + " CPUs, " + shape.memoryMb() + " MiB, " + shape.gpus() + " GPUs";
    }
}
