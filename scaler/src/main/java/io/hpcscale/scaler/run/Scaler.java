package io.hpcscale.scaler.run;

import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.scaler.cloud.CapacityException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.QuotaException;
import io.hpcscale.scaler.cloud.ThrottledException;
import io.hpcscale.scaler.plan.InstanceList;
import io.hpcscale.scaler.plan.Plan;
import io.hpcscale.scaler.plan.PlanResult;
import io.hpcscale.scaler.plan.Planner;
import io.hpcscale.scaler.plan.PoolState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scaler's cycle: read the documents once, list each pool's instances once, plan each pool, and carry out the
 * plan (unless in dry run). Pools are independent: one pool's provider failing or backing off does not hold up the
 * others.
 */
public final class Scaler {
    private static final Logger log = LoggerFactory.getLogger(Scaler.class);
    private static final Duration PURGE_EVERY = Duration.ofHours(1);

    private final List<PoolRuntime> pools;
    private final DocumentStore store;
    private final Planner planner;
    private final ScalerEvents events;
    private final boolean dryRun;
    private Instant lastPurge;

    public Scaler(List<PoolRuntime> pools, DocumentStore store, Planner planner, ScalerEvents events, boolean dryRun) {
        this.pools = List.copyOf(pools);
        this.store = store;
        this.planner = planner;
        this.events = events;
        this.dryRun = dryRun;
    }

    public List<PoolRuntime> pools() {
        return pools;
    }

    /** One cycle; in dry run every decision is logged with outcome dry-run and nothing is touched. */
    public CycleOutcome runOnce(Instant now) throws InterruptedException {
        return cycle(now, true);
    }

    /** Plans every pool without acting or recording anything: what {@code plan} prints. */
    public CycleOutcome planOnly(Instant now) throws InterruptedException {
        return cycle(now, false);
    }

    private CycleOutcome cycle(Instant now, boolean record) throws InterruptedException {
        ClusterView view;
        try {
            view = ClusterView.read(store);
        } catch (StoreException e) {
            log.warn("cycle skipped: the store cannot be read, so nothing is planned: {}", e.getMessage());
            return new CycleOutcome(now, List.of(), "store: " + e.getMessage());
        }
        List<PoolOutcome> outcomes = new ArrayList<>();
        for (PoolRuntime pool : pools) {
            outcomes.add(runPool(pool, view, now, record));
        }
        if (record) {
            events.endCycle();
        }
        if (record && !dryRun) {
            purgeExpiredEvents(now);
        }
        return new CycleOutcome(now, outcomes, null);
    }

    private PoolOutcome runPool(PoolRuntime pool, ClusterView view, Instant now, boolean record)
            throws InterruptedException {
        boolean act = record && !dryRun;
        InstanceList instances = list(pool, now, act);
        PoolState state = new PoolState(pool.config(), view.jobsOf(pool.name()), view.vmsOf(pool.name()),
                view.drainsOf(pool.name()), view.powerRequestsOf(pool.name()), instances, pool.provider().canCreate(),
                view.poolOfNode(), view.agentReadAt().get(pool.name()), pool.history(), now);
        PlanResult result = planner.plan(state);
        if (!record) {
            return new PoolOutcome(result.plan(), List.of());
        }
        if (act) {
            pool.history(result.history());
        }
        return new Actuation(pool, result.plan(), now).run();
    }

    private InstanceList list(PoolRuntime pool, Instant now, boolean act) throws InterruptedException {
        if (pool.throttled(now)) {
            return InstanceList.unknown("the provider throttled us until " + pool.throttledUntil());
        }
        try {
            return InstanceList.of(pool.provider().list());
        } catch (ThrottledException e) {
            if (act) {
                pool.throttle(now.plus(e.retryAfter()));
            }
            return InstanceList.unknown(e.getMessage() + "; next call after " + now.plus(e.retryAfter()));
        } catch (CloudException e) {
            return InstanceList.unknown(e.getMessage());
        }
    }

    private void purgeExpiredEvents(Instant now) {
        if (lastPurge != null && now.isBefore(lastPurge.plus(PURGE_EVERY))) {
            return;
        }
        lastPurge = now;
        try {
            int purged = store.store().purgeExpired();
            log.debug("purged {} expired documents", purged);
        } catch (StoreException e) {
            log.warn("purging expired events failed: {}", e.getMessage());
        }
    }

    /** Carries out one pool's plan, recording an event for each action and refusal. */
    private final class Actuation {
        private final PoolRuntime pool;
        private final Plan plan;
        private final Instant now;
        private final List<ScalerEvent> recorded = new ArrayList<>();
        private boolean throttled;

        Actuation(PoolRuntime pool, Plan plan, Instant now) {
            this.pool = pool;
            this.plan = plan;
            this.now = now;
        }

        PoolOutcome run() throws InterruptedException {
            for (Plan.Note note : plan.notes()) {
                refusal(note.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'), List.of(), note.message());
            }
            if (dryRun) {
                logDryRun();
                return new PoolOutcome(plan, recorded);
            }
            cancelDrains();
            requestDrains();
            forgetDonePowerRequests();
            stop();
            start();
            create();
            return new PoolOutcome(plan, recorded);
        }

        private void logDryRun() {
            String outcome = "dry-run";
            plan.cancels().forEach(c -> action("cancel-drain", List.of(c.node()), c.reason(), outcome));
            plan.drains().forEach(d -> action("drain", List.of(d.instance().nodeName()), d.reason(), outcome));
            plan.stops().forEach(st -> action(actionName(st), List.of(st.instance().id()), st.reason(), outcome));
            plan.starts().forEach(st -> action("start", List.of(st.instance().id()), st.reason(), outcome));
            plan.powerDone().forEach(p -> action("power-request-done", List.of(p.node()), p.reason(), outcome));
            if (plan.create() != null) {
                action("create", List.of(), plan.create().count() + " instances: " + plan.create().reason(), outcome);
            }
        }

        private void cancelDrains() {
            for (Plan.CancelDrain cancel : plan.cancels()) {
                String outcome = storeWrite(() -> store.delete(List.of(drainKey(cancel.node()))));
                action("cancel-drain", List.of(cancel.node()), cancel.reason(), outcome);
            }
        }

        private void forgetDonePowerRequests() {
            for (Plan.PowerDone done : plan.powerDone()) {
                String outcome = storeWrite(() -> store.delete(List.of(powerKey(done.node()))));
                action("power-request-done", List.of(done.node()), done.reason(), outcome);
            }
        }

        private void requestDrains() {
            for (Plan.DrainRequest drain : plan.drains()) {
                String node = drain.instance().nodeName();
                String outcome = storeWrite(() -> store.upsert(List.of(
                        DrainDocument.request(pool.name(), node, drain.reason(), now))));
                action("drain", List.of(node), drain.reason(), outcome);
            }
        }

        /**
         * Stops are re-checked against a fresh read of the node's document and its drain request just before the
         * call, so a decision made from the cycle's first read is never acted on after the facts changed.
         */
        private void stop() throws InterruptedException {
            List<Instance> verified = new ArrayList<>();
            List<Plan.Stop> verifiedStops = new ArrayList<>();
            for (Plan.Stop stop : plan.stops()) {
                String refusal = recheck(stop);
                if (refusal != null) {
                    action(actionName(stop), List.of(stop.instance().id()), stop.reason(), "refused: " + refusal);
                } else {
                    verified.add(stop.instance());
                    verifiedStops.add(stop);
                }
            }
            if (verified.isEmpty() || throttled) {
                return;
            }
            String outcome = cloudCall(() -> pool.provider().stop(verified, pool.config().stopAction()));
            for (Plan.Stop stop : verifiedStops) {
                action(actionName(stop), List.of(stop.instance().id()), stop.reason()
                        + " (" + pool.config().stopAction().setting() + ")", outcome);
                if (outcome.equals("ok") && stop.kind() == Plan.Stop.Kind.POWER_SAVING) {
                    storeWrite(() -> store.delete(List.of(powerKey(stop.instance().nodeName()))));
                }
            }
        }

        private String recheck(Plan.Stop stop) {
            String node = stop.instance().nodeName();
            try {
                Optional<VmDocument> vm = store.read(new DocumentKey(pool.name(), vmId(node)), VmDocument.class)
                        .map(DocumentStore.Versioned::document);
                if (stop.kind() == Plan.Stop.Kind.BOOT_FAILURE) {
                    if (vm.isPresent() && !vm.get().idle()) {
                        return "the scheduler now lists a job on its node";
                    }
                    return vm.isPresent() && !vm.get().down() ? "its node reported in after all" : null;
                }
                if (stop.kind() == Plan.Stop.Kind.POWER_SAVING) {
                    return vm.isPresent() && vm.get().idle() ? null : "a fresh read shows a job on it";
                }
                Optional<DrainDocument> drain = store.read(drainKey(node), DrainDocument.class)
                        .map(DocumentStore.Versioned::document);
                if (drain.isEmpty()) {
                    return "its drain request is gone";
                }
                if (vm.isEmpty() || !io.hpcscale.scaler.plan.DrainHandshake.complete(drain.get(), vm.get())) {
                    return "a fresh read no longer shows it drained and empty";
                }
                return null;
            } catch (StoreException e) {
                return "the store cannot be read to confirm it: " + e.getMessage();
            }
        }

        private void start() throws InterruptedException {
            if (plan.starts().isEmpty() || throttled) {
                return;
            }
            List<Plan.Start> pending = new ArrayList<>(plan.starts());
            while (!pending.isEmpty()) {
                List<Instance> batch = pending.stream().map(Plan.Start::instance).toList();
                try {
                    pool.provider().start(batch);
                } catch (QuotaException e) {
                    if (batch.size() > 1) {
                        List<Plan.Start> smaller = pending.subList(0, batch.size() / 2);
                        for (Plan.Start left : pending.subList(batch.size() / 2, pending.size())) {
                            action("start", List.of(left.instance().id()), left.reason(),
                                    "failed: quota; retrying with " + smaller.size() + " instances");
                        }
                        pending = new ArrayList<>(smaller);
                        continue;
                    }
                    backoff(e);
                    startsFailed(pending, e);
                    return;
                } catch (CapacityException e) {
                    backoff(e);
                    startsFailed(pending, e);
                    return;
                } catch (ThrottledException e) {
                    throttled(e);
                    startsFailed(pending, e);
                    return;
                } catch (CloudException e) {
                    startsFailed(pending, e);
                    return;
                }
                for (Plan.Start start : pending) {
                    pool.history(pool.history().booting(start.instance().id(), now));
                    action("start", List.of(start.instance().id()), start.reason(), "ok");
                    if (start.powerRequest()) {
                        storeWrite(() -> store.delete(List.of(powerKey(start.instance().nodeName()))));
                    }
                    if (start.withdrawDrain()) {
                        String outcome = storeWrite(() -> store.delete(List.of(drainKey(start.instance().nodeName()))));
                        action("cancel-drain", List.of(start.instance().nodeName()),
                                "its instance was started again", outcome);
                    }
                }
                return;
            }
        }

        private void create() throws InterruptedException {
            Plan.Create create = plan.create();
            if (create == null || throttled) {
                return;
            }
            try {
                List<Instance> created = pool.provider().create(create.count());
                for (Instance instance : created) {
                    pool.history(pool.history().booting(instance.id(), now));
                }
                action("create", created.stream().map(Instance::id).toList(), create.reason(), "ok");
            } catch (CapacityException | QuotaException e) {
                backoff(e);
                action("create", List.of(), create.reason(), "failed: " + e.getMessage());
            } catch (ThrottledException e) {
                throttled(e);
                action("create", List.of(), create.reason(), "failed: " + e.getMessage());
            } catch (CloudException e) {
                action("create", List.of(), create.reason(), "failed: " + e.getMessage());
            }
        }

        private void startsFailed(List<Plan.Start> starts, CloudException e) {
            for (Plan.Start start : starts) {
                action("start", List.of(start.instance().id()), start.reason(), "failed: " + e.getMessage());
            }
        }

        private void backoff(CloudException e) {
            Instant until = now.plus(pool.config().capacityBackoff());
            String kind = e instanceof QuotaException ? "quota" : "capacity";
            pool.history(pool.history().backoff(until, kind + " error: " + e.getMessage()));
            refusal("backoff", List.of(), kind + " error, no instance is started until " + until + ": "
                    + e.getMessage());
        }

        private void throttled(ThrottledException e) {
            throttled = true;
            pool.throttle(now.plus(e.retryAfter()));
            refusal("throttled", List.of(), "the provider asks to wait until " + now.plus(e.retryAfter()) + ": "
                    + e.getMessage());
        }

        private String cloudCall(CloudCall call) throws InterruptedException {
            try {
                call.run();
                return "ok";
            } catch (ThrottledException e) {
                throttled(e);
                return "failed: " + e.getMessage();
            } catch (CloudException e) {
                return "failed: " + e.getMessage();
            }
        }

        private String storeWrite(Runnable write) {
            try {
                write.run();
                return "ok";
            } catch (StoreException e) {
                return "failed: " + e.getMessage();
            }
        }

        private void action(String action, List<String> instances, String reason, String outcome) {
            ScalerEvent event = new ScalerEvent(now, pool.name(), action, instances, reason, outcome);
            recorded.add(event);
            events.action(event);
        }

        private void refusal(String action, List<String> instances, String reason) {
            ScalerEvent event = new ScalerEvent(now, pool.name(), action, instances, reason, "refused");
            recorded.add(event);
            events.refusal(event);
        }

        private DocumentKey drainKey(String node) {
            return new DocumentKey(pool.name(), DrainDocument.idFor(node));
        }

        private DocumentKey powerKey(String node) {
            return new DocumentKey(pool.name(), io.hpcscale.common.model.PowerDocument.idFor(node));
        }
    }

    private static String actionName(Plan.Stop stop) {
        return stop.bootFailure() ? "boot-timeout" : "stop";
    }


    private static String vmId(String node) {
        return io.hpcscale.common.model.CosmosIds.encode(node);
    }

    @FunctionalInterface
    private interface CloudCall {
        void run() throws CloudException, InterruptedException;
    }
}
