package io.hpcscale.simulator.soak;

import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.config.Durations;
import io.hpcscale.common.model.CosmosIds;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.pool.VmShape;
import io.hpcscale.simulator.ActionAudit;
import io.hpcscale.simulator.SimJob;
import io.hpcscale.simulator.SimulatedCluster;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * One seed of the soak: a cluster of one or two pools (Spot or not, health-checked or not, one scaler or two) through
 * several hundred random steps with faults switched on at random (among them what a real PBS server does: jobs
 * suspended, the server restarted, nodes taken offline by an administrator; and what Azure does: evictions, some
 * announced by a Preempt notice; and nodes failing their health check), then a calm end in which no fault and no new
 * job comes, the administrators give their nodes back and suspended jobs resume. What it must show at the end: every
 * job ran, no instance was stopped under a job, no job ran on a node whose check had not passed, no start or stop was
 * asked twice, and the cloud is back at the pools' min (or their warm nodes, if more) with every active instance
 * running a node the scheduler knows.
 */
final class SoakScenario {
    private static final Instant START = Instant.parse("2026-11-22T08:00:00Z");
    private static final DateTimeFormatter HH_MM = DateTimeFormatter.ofPattern("HH:mm");
    private static final int STEPS = 400;
    private static final int CALM_STEPS = 900;
    private static final Duration CALM_STEP = Duration.ofSeconds(20);
    // Longer than every idle timeout and lease: the pool has been at its planned size for a while, not in passing.
    private static final int SETTLED_STEPS = 30;
    // Calm time is not all time the scaler can act in: a cycle comes one step in nine, a kill may end it, the agent's
    // report must be fresh (6m), a 429's retry-after outlives its storm, and a cycle slowed by the store outlives
    // its lease. Seeds 46 and 72 go past 15m of calm for such reasons, seed 8139 past 40m (three boot-timeout stops
    // refused for a lease lost to a slow store); 60m still finds a boot the scaler never stops.
    private static final Duration FORGOTTEN_AFTER_CALM = Duration.ofMinutes(60);
    private static final Fault[] LASTING = {Fault.STORE_DOWN, Fault.STORE_SLOW, Fault.STORE_THROTTLED,
            Fault.CLOUD_429, Fault.CLOUD_FAIL, Fault.CLOUD_UNFINISHED, Fault.SCHEDULER_FAIL};

    private record Announced(String pool, String instanceId, Instant at) {
    }

    /** What one scenario did and what it found wrong. */
    record Result(long steps, long jobsRun, long actionsChecked, boolean twoPools, boolean spot, boolean twoScalers,
            boolean checked, int jobsRequeued, int jobsToldWhy, int jobsAfterHoldWait,
            List<String> violations) {
    }

    private final long seed;
    private final Random random;
    private final SettableClock clock;
    private final Faults faults;
    private final List<PoolConfig> pools;
    private final SimulatedCluster cluster;
    private final ActionAudit audit;
    private final ForgottenWatch forgotten;
    private final boolean spot;
    private final boolean twoScalers;
    /** The pools have a health check, which nodes fail now and then. */
    private final boolean checked;
    /** The pools stop orphans (stopOrphans); otherwise they only say so, and leave them running. */
    private final boolean stopOrphans;
    /** Instances started outside hpcscale and still running that run, by instance id: their pool. */
    private final Map<String, String> orphans = new HashMap<>();
    /** Evictions announced by a Preempt notice, each due at the notice's NotBefore. */
    private final List<Announced> announced = new ArrayList<>();
    // How often a lasting fault begins, one step in this many: some scenarios are stormy, some mostly calm.
    private final int faultOneIn;
    /** Every job submitted, by id. */
    private final Map<String, SimJob> submitted = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    /** The store as hpcscale wrote it, read past the faults. */
    private final DocumentStore recorded;
    private long steps;
    private int jobs;
    private boolean racing;

    SoakScenario(long seed, FaultCounts counts) {
        this.seed = seed;
        // java.util.Random's first draws barely differ between neighbouring seeds: mixed, seeds 1, 2, 3 differ.
        this.random = new Random(new SplittableRandom(seed).nextLong());
        this.clock = new SettableClock(START);
        this.faults = new Faults(random, clock, counts);
        this.pools = new ArrayList<>();
        this.checked = random.nextBoolean();
        this.stopOrphans = random.nextBoolean();
        for (String name : random.nextBoolean() ? List.of("p") : List.of("p", "q")) {
            Map<String, String> settings = new HashMap<>(Map.of("min", Integer.toString(random.nextInt(2)),
                    "idleTimeout", Durations.format(Duration.ofMinutes(1 + random.nextInt(3)))));
            if (checked) {
                settings.put("healthCheck", "/usr/sbin/nhc");
            }
            settings.put("stopOrphans", Boolean.toString(stopOrphans));
            // Warm nodes and the adaptive idle timeout keep idle nodes on purpose, beside every fault.
            int warm = random.nextInt(3) == 0 ? 1 + random.nextInt(2) : 0;
            settings.put("warm", Integer.toString(warm));
            // A window of more warm nodes that opens and closes within the faulty steps (about 2.5 hours from
            // START), on the wall clock of a zone.
            if (random.nextInt(4) == 0) {
                ZoneId zone = ZoneId.of(random.nextBoolean() ? "UTC" : "America/Chicago");
                LocalTime opens = START.plus(Duration.ofMinutes(20 + random.nextInt(60))).atZone(zone).toLocalTime();
                settings.put("warmSchedule", String.format("daily %s-%s = %d", HH_MM.format(opens),
                        HH_MM.format(opens.plusMinutes(20 + random.nextInt(60))), warm + 1 + random.nextInt(2)));
                settings.put("warmScheduleZone", zone.getId());
            }
            if (random.nextBoolean()) {
                settings.putAll(Map.of("idlePolicy", "adaptive", "idleTimeoutMin", "30s", "idleTimeoutMax", "10m"));
            }
            // A third of the pools hibernate what they stop, and resume it sooner than a boot.
            if (random.nextInt(3) == 0) {
                settings.put("stopAction", "hibernate");
            }
            // A third count only the jobs the scheduler's backfilling would start. Drawn apart from the scenario's
            // own draws, so that every seed found before this setting still replays as it did.
            if (new SplittableRandom(new SplittableRandom(seed).nextLong() ^ name.hashCode()).nextInt(3) == 0) {
                settings.put("demand", "backfill");
            }
            pools.add(PoolConfigs.withDefaults(name, new VmShape(4, 16384, 0), 6, settings));
        }
        // A scale set smaller than the pool's max makes the scaler create instances, not only start them.
        int scaleSetSize = 3 + random.nextInt(6);
        InMemoryClusterLoadStore store = new InMemoryClusterLoadStore(clock);
        this.cluster = new SimulatedCluster(clock, new FaultyStore(store, faults),
                new SimulatedCluster.Spec(pools, scaleSetSize, () -> Duration.ofSeconds(30 + random.nextInt(120)),
                        Duration.ofMinutes(6), Duration.ofDays(1)));
        for (PoolConfig pool : pools) {
            if (pool.stopAction() == StopAction.HIBERNATE) {
                cluster.cloud().resumeDelay(pool.name(), () -> Duration.ofSeconds(10 + random.nextInt(30)));
            }
        }
        // Read past the faults, so that the check draws nothing from them and changes no history.
        DocumentStore recorded = new DocumentStore(store);
        this.recorded = recorded;
        cluster.scheduler().judgeByTheStore((pool, node) -> recorded.read(new DocumentKey(pool,
                CosmosIds.encode(node)), VmDocument.class).map(vm -> vm.document().heldByAdministrator())
                .orElse(false));
        this.audit = new ActionAudit(cluster.cloud(), clock);
        this.forgotten = new ForgottenWatch(cluster.cloud(), pools.stream().collect(Collectors.toMap(
                PoolConfig::name, PoolConfig::bootTimeout)), FORGOTTEN_AFTER_CALM,
                cluster.scheduler()::heldByAdministrator, this::orphanLeftRunning);
        cluster.cloud().addListener((pool, instance, from, evicted, at) -> {
            if (orphans.containsKey(instance.id()) && from.active() && !instance.state().active()) {
                orphans.remove(instance.id());
                if (!evicted && !stopOrphans && !takenForItsOwn(recorded, pool, instance.id())) {
                    violations.add("seed " + seed + " at " + at + ": orphan " + instance.id() + " stopped by "
                            + "hpcscale in pool " + pool + ", whose stopOrphans is false");
                }
            }
        });
        this.spot = random.nextInt(3) == 0;
        this.twoScalers = random.nextBoolean();
        this.faultOneIn = 4 + random.nextInt(25);
        // The simulated provider names its pool last in its description: "simulated scale set p".
        cluster.interceptProviders(provider -> audit.watch(new FaultyCloudProvider(provider, faults,
                cluster.scheduler()::acceptedNow),
                provider.describe().substring(provider.describe().lastIndexOf(' ') + 1)));
        cluster.interceptScheduler(scheduler -> new FaultyScheduler(scheduler, faults));
        if (twoScalers) {
            cluster.startSecondScaler();
            audit.duringEachCall(this::race);
        }
    }

    Result run() throws InterruptedException {
        try {
            for (int step = 0; step < STEPS; step++) {
                step();
            }
            calmEnd();
        } catch (RuntimeException e) {
            violations.add("seed " + seed + " at " + clock.instant() + ": " + e);
        }
        violations.addAll(audit.doubled().stream().map(d -> "seed " + seed + ": doubled " + d).toList());
        violations.addAll(cluster.scheduler().violations().stream().map(v -> "seed " + seed + ": " + v).toList());
        return new Result(steps, cluster.scheduler().finishedJobs().size(), audit.starts() + audit.stops(),
                pools.size() > 1, spot, twoScalers, checked, cluster.scheduler().requeuedJobs(),
                cluster.scheduler().jobsToldWhyTheyWait(), cluster.scheduler().jobsAfterHoldWait(),
                List.copyOf(violations));
    }

    private void step() throws InterruptedException {
        steps++;
        Duration elapsed = Duration.ofSeconds(random.nextInt(45));
        clock.advance(elapsed);
        if (faults.quiet()) {
            forgotten.calmFor(elapsed);
        }
        injectFaults();
        switch (random.nextInt(9)) {
            case 0 -> agentCycle();
            case 1 -> scalerCycle(0);
            case 2 -> {
                if (twoScalers) {
                    scalerCycle(1);
                }
            }
            case 3 -> cluster.scheduler().step();
            case 4, 5 -> submit();
            default -> landJobOnFreeNode();
        }
        faults.tick();
        forgotten.check(clock.instant()).forEach(f -> violations.add("seed " + seed + ": " + f));
    }

    private void injectFaults() {
        if (random.nextInt(faultOneIn) == 0) {
            faults.start(LASTING[random.nextInt(LASTING.length)], 5 + random.nextInt(40));
        }
        if (random.nextInt(40) == 0) {
            faults.armKill(Actor.AGENT, random.nextInt(8));
        }
        if (random.nextInt(25) == 0) {
            faults.armKill(Actor.scaler(twoScalers ? random.nextInt(2) : 0), random.nextInt(16));
        }
        if (spot && random.nextInt(25) == 0) {
            evict();
        }
        evictAnnounced();
        // Rarer than broken boots: five in a row protect a pool, which then starts one probe every 30 minutes.
        if (checked && random.nextInt(100) == 0) {
            cluster.nodePrograms().failNextChecks(pools.get(random.nextInt(pools.size())).name(), 1);
            faults.count(Fault.FAILED_CHECK);
        }
        if (random.nextInt(60) == 0) {
            cluster.cloud().breakBoots(pools.get(random.nextInt(pools.size())).name(), 1);
            faults.count(Fault.BROKEN_BOOT);
        }
        if (random.nextInt(15) == 0) {
            suspendOrResume();
        }
        if (random.nextInt(80) == 0) {
            cluster.scheduler().restartServer(Duration.ofSeconds(random.nextInt(30)),
                    Duration.ofSeconds(random.nextInt(60)), Duration.ofSeconds(random.nextInt(10)));
            faults.count(Fault.SCHEDULER_RESTART);
        }
        if (random.nextInt(50) == 0) {
            markByAdministrator();
        }
        if (random.nextInt(150) == 0) {
            startOrphan();
        }
    }

    /** One orphan a pool at a time: more would fill the pool's max, and its jobs would wait for good. */
    private void startOrphan() {
        String pool = pools.get(random.nextInt(pools.size())).name();
        if (orphans.containsValue(pool)) {
            return;
        }
        orphans.put(cluster.cloud().startOutside(pool), pool);
        faults.count(Fault.ORPHAN);
    }

    /**
     * Whether the scaler may take the instance for one of its own, as it does on Azure too: one it recorded as started,
     * or one it first saw within a boot timeout of its last growth (a create's instance the listing showed late), which
     * it times as a boot.
     */
    private boolean recordedAsSomeoneElses(String pool, String node) {
        return recorded.read(new DocumentKey(pool, CosmosIds.encode(node)), VmDocument.class)
                .map(vm -> vm.document().heldByAdministrator()).orElse(false);
    }

    private boolean takenForItsOwn(DocumentStore recorded, String pool, String instanceId) {
        Duration bootTimeout = pools.stream().filter(p -> p.name().equals(pool)).findFirst().orElseThrow()
                .bootTimeout();
        return recorded.read(new DocumentKey(pool, ScalerStateDocument.idFor(pool)), ScalerStateDocument.class)
                .map(read -> read.document()).map(state -> state.instance(instanceId).map(record ->
                        record.startedByHpcscale() || state.grownAt() != null && record.startedAt() != null
                                && !record.startedAt().isAfter(state.grownAt().plus(bootTimeout))).orElse(false))
                .orElse(false);
    }

    /** An orphan its pool leaves running, as told: not forgotten, nor keeping the cluster from its end. */
    private boolean orphanLeftRunning(String instanceId) {
        return !stopOrphans && orphans.containsKey(instanceId);
    }

    private void suspendOrResume() {
        List<String> running = cluster.scheduler().runningJobIds();
        if (running.isEmpty()) {
            return;
        }
        String job = running.get(random.nextInt(running.size()));
        if (random.nextBoolean()) {
            cluster.scheduler().suspend(job);
            faults.count(Fault.SUSPENDED_JOB);
        } else {
            cluster.scheduler().resume(job);
        }
    }

    private void markByAdministrator() {
        String pool = pools.get(random.nextInt(pools.size())).name();
        List<Instance> instances = cluster.cloud().instances(pool);
        if (instances.isEmpty()) {
            return;
        }
        String node = instances.get(random.nextInt(instances.size())).nodeName();
        boolean held = cluster.scheduler().heldByAdministrator(node);
        cluster.scheduler().administratorOffline(node, !held);
        if (!held) {
            faults.count(Fault.ADMIN_MARK);
        }
    }

    /**
     * The administrators give back every node they took offline, and every node offline with no mark that hpcscale
     * has recorded as someone else's, as docs/operations.md tells them to; every suspended job is resumed.
     */
    private void administratorsDone() {
        for (PoolConfig pool : pools) {
            for (Instance instance : cluster.cloud().instances(pool.name())) {
                // A mark a server restart emptied, with no evidence in the store that it was hpcscale's, is one
                // hpcscale leaves alone (seed 605: a drained node whose drain was withdrawn, its mark lost before the
                // agent returned it and before the store recorded it offline by hpcscale). A node the agent holds as
                // its own is not given back: hpcscale must settle it itself.
                if (cluster.scheduler().heldByAdministrator(instance.nodeName())
                        || (cluster.scheduler().offlineWithoutMark(instance.nodeName())
                                && recordedAsSomeoneElses(pool.name(), instance.nodeName()))) {
                    cluster.scheduler().administratorOffline(instance.nodeName(), false);
                }
            }
        }
        cluster.scheduler().runningJobIds().forEach(cluster.scheduler()::resume);
    }

    private void agentCycle() throws InterruptedException {
        faults.actAs(Actor.AGENT);
        try {
            cluster.agentCycle();
        } catch (Killed killed) {
            faults.takeKill(Actor.AGENT);
            restartAgent();
            return;
        } finally {
            faults.actAs(Actor.SOAK);
        }
        if (faults.takeKill(Actor.AGENT)) {
            restartAgent();
        }
    }

    private void restartAgent() {
        faults.count(Fault.AGENT_RESTART);
        cluster.restartAgent();
    }

    private void scalerCycle(int which) throws InterruptedException {
        Actor actor = Actor.scaler(which);
        Actor before = faults.actAs(actor);
        if (which == 1) {
            faults.count(Fault.SECOND_SCALER);
        }
        try {
            cluster.scalerCycle(which);
        } catch (Killed killed) {
            faults.takeKill(actor);
            restartScaler(which);
            return;
        } finally {
            faults.actAs(before);
        }
        if (faults.takeKill(actor)) {
            restartScaler(which);
        }
    }

    private void restartScaler(int which) {
        faults.count(Fault.SCALER_RESTART);
        cluster.restartScaler(which);
    }

    /**
     * Now and then runs the other scaler's whole cycle while one scaler's start or stop is in flight: the moment two
     * scalers would both act on what they listed, were it not for the lease.
     */
    private void race() {
        Actor actor = faults.actor();
        if (racing || (actor != Actor.SCALER_1 && actor != Actor.SCALER_2) || random.nextInt(4) != 0) {
            return;
        }
        racing = true;
        try {
            scalerCycle(actor == Actor.SCALER_1 ? 1 : 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            racing = false;
        }
    }

    /** A Spot eviction: at once, or, half the time, announced to the node by a Preempt notice 30 s ahead. */
    private void evict() {
        String pool = pools.get(random.nextInt(pools.size())).name();
        List<Instance> active = cluster.cloud().instances(pool).stream().filter(i -> i.state().active()).toList();
        if (active.isEmpty()) {
            return;
        }
        Instance instance = active.get(random.nextInt(active.size()));
        if (random.nextBoolean() && cluster.cloud().nodeUp(pool, instance.nodeName())) {
            Instant at = clock.instant().plusSeconds(30);
            cluster.nodePrograms().preempt(instance.nodeName(), at, clock.instant());
            announced.add(new Announced(pool, instance.id(), at));
            faults.count(Fault.PREEMPT_NOTICE);
            return;
        }
        cluster.cloud().evict(pool, instance.id());
        faults.count(Fault.EVICTION);
    }

    /** The announced evictions that are due, of instances still active: the notice's NotBefore came. */
    private void evictAnnounced() {
        for (Announced due : List.copyOf(announced)) {
            if (clock.instant().isBefore(due.at())) {
                continue;
            }
            announced.remove(due);
            boolean active = cluster.cloud().instances(due.pool()).stream()
                    .anyMatch(i -> i.id().equals(due.instanceId()) && i.state().active());
            if (active) {
                cluster.cloud().evict(due.pool(), due.instanceId());
                faults.count(Fault.EVICTION);
            }
        }
    }

    private void submit() {
        String pool = pools.get(random.nextInt(pools.size())).name();
        SimJob job = new SimJob("j" + seed + "-" + jobs++, pool, clock.instant(), 1 + random.nextInt(3),
                Duration.ofSeconds(20 + random.nextInt(400)), Duration.ofMinutes(10), false);
        submitted.put(job.id(), job);
        cluster.scheduler().submit(job);
    }

    /**
     * A one-node job placed by the scheduler on a free, up, online node at any moment, preferring one the scaler
     * asked to drain: the race between a drain request and the agent's offline.
     */
    private void landJobOnFreeNode() {
        String pool = pools.get(random.nextInt(pools.size())).name();
        List<String> free = new ArrayList<>();
        List<String> draining = new ArrayList<>();
        for (Instance instance : cluster.cloud().instances(pool)) {
            String node = instance.nodeName();
            if (cluster.cloud().nodeUp(pool, node) && !cluster.scheduler().busy(node)) {
                free.add(node);
                if (cluster.hasDrainRequest(node)) {
                    draining.add(node);
                }
            }
        }
        List<String> from = !draining.isEmpty() && random.nextBoolean() ? draining : free;
        if (from.isEmpty()) {
            return;
        }
        SimJob job = new SimJob("r" + seed + "-" + jobs++, pool, clock.instant(), 1,
                Duration.ofSeconds(10 + random.nextInt(300)), Duration.ofMinutes(10), false);
        submitted.put(job.id(), job);
        cluster.scheduler().submit(job);
        try {
            cluster.scheduler().startOn(job, List.of(from.get(random.nextInt(from.size()))));
        } catch (IllegalStateException offline) {
            // The node was taken offline since the cloud was looked at: the job waits in the queue like any other.
            cluster.scheduler().step();
        }
    }

    /**
     * No more faults or jobs: everything queued must run and the pools come back to their min (or their warm nodes,
     * if more), and stay there.
     */
    private void calmEnd() throws InterruptedException {
        faults.calm();
        cluster.nodePrograms().noMoreFailures();
        administratorsDone();
        int calmSteps = CALM_STEPS + backlogSteps();
        int settledFor = 0;
        for (int step = 0; step < calmSteps && settledFor < SETTLED_STEPS; step++) {
            steps++;
            clock.advance(CALM_STEP);
            forgotten.calmFor(CALM_STEP);
            evictAnnounced();
            agentCycle();
            scalerCycle(0);
            if (twoScalers) {
                scalerCycle(1);
            }
            cluster.scheduler().step();
            settledFor = unsettled().isEmpty() ? settledFor + 1 : 0;
            forgotten.check(clock.instant()).forEach(f -> violations.add("seed " + seed + ": " + f));
        }
        List<String> unsettled = unsettled();
        if (!unsettled.isEmpty()) {
            violations.add("seed " + seed + ": not settled " + calmSteps + " calm steps after the faults stopped: "
                    + unsettled);
        }
        Set<String> lost = new HashSet<>(submitted.keySet());
        cluster.scheduler().finishedJobs().forEach(job -> lost.remove(job.id()));
        if (!lost.isEmpty()) {
            violations.add("seed " + seed + ": " + lost.size() + " jobs never ran to the end: " + lost);
        }
    }

    /**
     * The calm steps the work not yet done takes at its pool's max, for the pool with the most. Faults can keep a pool
     * from running anything for hours (seed 444: nodes held by administrators, failed checks and broken boots protected
     * the pool with 199 jobs queued), and a backlog that outlasts the calm is not a cluster that failed to settle.
     */
    private int backlogSteps() {
        Set<String> done = new HashSet<>();
        cluster.scheduler().finishedJobs().forEach(job -> done.add(job.id()));
        int steps = 0;
        for (PoolConfig pool : pools) {
            long nodeSeconds = submitted.values().stream().filter(job -> job.queue().equals(pool.name())
                    && !done.contains(job.id())).mapToLong(job -> job.nodes() * job.runtime().toSeconds()).sum();
            steps = Math.max(steps, (int) (nodeSeconds / pool.max() / CALM_STEP.toSeconds()));
        }
        return steps;
    }

    /**
     * What keeps the cluster from its planned end: jobs left, an instance forgotten (active without a node the
     * scheduler has up: booting, broken or lost track of), one paid for but kept offline, or a pool not at its min.
     */
    private List<String> unsettled() throws InterruptedException {
        List<String> problems = new ArrayList<>();
        Set<String> offline = offlineNodes();
        if (cluster.scheduler().queuedJobs() + cluster.scheduler().runningJobs() > 0) {
            problems.add(cluster.scheduler().queuedJobs() + " jobs queued, " + cluster.scheduler().runningJobs()
                    + " running");
        }
        for (PoolConfig pool : pools) {
            int active = 0;
            for (Instance instance : cluster.cloud().instances(pool.name())) {
                if (!instance.state().active() || orphanLeftRunning(instance.id())) {
                    continue;
                }
                active++;
                if (instance.state() != PowerState.RUNNING || !cluster.cloud().nodeUp(pool.name(),
                        instance.nodeName())) {
                    problems.add(instance.id() + " " + instance.state() + " without its node up");
                }
                if (offline.contains(instance.nodeName())) {
                    problems.add(instance.id() + " active with its node " + instance.nodeName() + " offline");
                }
            }
            int warm = pool.warm().at(clock.instant());
            int atRest = Math.max(pool.min(), warm);
            if (active != atRest) {
                problems.add("pool " + pool.name() + " has " + active + " active instances, its min is "
                        + pool.min() + " and its warm " + warm);
            }
        }
        return problems;
    }

    /** The nodes the scheduler shows offline; empty while its server restarts (the end waits for it anyway). */
    private Set<String> offlineNodes() throws InterruptedException {
        try {
            return cluster.scheduler().read().nodes().stream().filter(SchedulerNode::isOffline)
                    .map(SchedulerNode::name).collect(Collectors.toSet());
        } catch (SchedulerReadException restarting) {
            return Set.of();
        }
    }
}
