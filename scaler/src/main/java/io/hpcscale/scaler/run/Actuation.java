package io.hpcscale.scaler.run;

import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.CreateResult;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceResults;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.documents.StopKind;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.plan.Plan;
import io.hpcscale.scaler.plan.StopGuard;
import io.hpcscale.scaler.pool.StopAction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Carries out one pool's plan and records what came of it ({@link PoolLedger}). Every action is an event. What
 * only the store carries out comes first: drains asked and withdrawn, power requests answered, removals taken on
 * ({@link RemovalSteps}). Then the calls to the cloud: before the first, the calls about to be made are written to
 * the pool's state as pending, so that a scaler killed during a call finds out, when it starts again, what may
 * have happened; once the outcomes are known they replace the pending marks. Stops are re-checked by
 * {@link StopGuard} on a fresh read before the intents are written, starts by {@code StartGuard} just before their
 * call ({@link StartCalls}). The administrator's hooks, if any, run before the first action, and may refuse some,
 * and after the last ({@link ActionHooks}).
 */
final class Actuation {
    private final PoolRuntime pool;
    /** The plan as made, then as the before hook leaves it ({@link ActionHooks}). */
    private Plan plan;
    private final Instant now;
    private final CycleContext context;
    private final PoolLedger ledger;
    private final PoolDocuments documents;

    /**
     * @param observed the pool's state with this cycle's observations
     * @param loaded   the state as read at the start of the cycle, with its ETag
     */
    Actuation(PoolRuntime pool, Plan plan, Instant now, CycleContext context, ScalerStateDocument observed,
            ScalerStateStore.Loaded loaded) {
        this.pool = pool;
        this.plan = plan;
        this.now = now;
        this.context = context;
        this.ledger = new PoolLedger(pool, now, context, observed, loaded);
        this.documents = new PoolDocuments(context.store(), pool.name(), now);
    }

    /** The pool's state as this actuation left it: what the next plan of the pool starts from. */
    ScalerStateDocument state() {
        return ledger.state();
    }

    /** Why the pool's outcome could not be recorded, or null. */
    String problem() {
        return ledger.problem();
    }

    List<ScalerEvent> run() throws InterruptedException {
        plan.found().forEach(ledger::found);
        plan.notes().forEach(note -> ledger.refusal(note.kind(), List.of(), note.message()));
        if (context.dryRun()) {
            plan.actions().forEach(action -> ledger.event(action, Outcome.DRY_RUN));
            return ledger.events();
        }
        // A scaler shutting down or without its lease calls nothing more: no hook is waited for either.
        boolean hooked = context.gate().open();
        if (hooked) {
            ActionHooks.Verdict verdict = context.hooks().before(plan, now);
            verdict.refused().forEach(refusal -> ledger.event(refusal.action(), Outcome.refused(refusal.reason())));
            plan = verdict.approved();
        }
        plan.cancels().forEach(cancel -> ledger.event(cancel, documents.withdrawDrain(cancel.node())));
        plan.drains().forEach(drain -> ledger.event(drain, documents.requestDrain(drain.node(), drain.reason())));
        plan.powerDone().forEach(done -> ledger.event(done, documents.forgetPowerRequest(done.node())));
        new RemovalSteps(pool, plan, now, context, ledger).run();
        callCloud();
        documents.announceDrains();
        if (hooked && context.gate().open()) {
            context.hooks().after(pool.name(), ledger.events(), now);
        }
        return ledger.events();
    }

    private void callCloud() throws InterruptedException {
        List<Plan.Stop> stops = verifiedStops();
        List<Plan.Action> cloudWork = new ArrayList<>(stops);
        cloudWork.addAll(plan.starts());
        if (plan.create() != null) {
            cloudWork.add(plan.create());
        }
        String closed = context.gate().closedBecause();
        if (!cloudWork.isEmpty() && closed != null) {
            // No call begins once the scaler shuts down or has lost its lease.
            cloudWork.forEach(action -> ledger.event(action, Outcome.refused(closed)));
            keepGrowthClock();
            ledger.commit();
            return;
        }
        if (!cloudWork.isEmpty() && !writeIntents(stops, cloudWork)) {
            return;
        }
        StopAction configured = pool.config().stopAction();
        if (configured == StopAction.HIBERNATE) {
            stop(stops.stream().filter(st -> st.kind().idle()).toList(), StopAction.HIBERNATE);
            stop(stops.stream().filter(st -> !st.kind().idle() && st.kind() != StopKind.REMOVED).toList(),
                    StopAction.DEALLOCATE);
        } else {
            stop(stops.stream().filter(st -> st.kind() != StopKind.REMOVED).toList(), configured);
        }
        stop(stops.stream().filter(st -> st.kind() == StopKind.REMOVED).toList(), StopAction.DELETE);
        new StartCalls(pool, now, context.gate(), documents, ledger).run(plan.starts());
        create();
        tidy();
        keepGrowthClock();
        ledger.commit();
    }

    /** The provider's growths as this cycle's listing and create left them, for the next cycle or scaler to time. */
    private void keepGrowthClock() {
        ledger.update(state -> state.withGrowing(pool.provider().growing()));
    }

    /**
     * The planned stops and removals that {@link StopGuard} still allows on a fresh read of each node and its drain
     * request.
     */
    private List<Plan.Stop> verifiedStops() {
        List<Plan.Stop> planned = new ArrayList<>(plan.stops());
        plan.removals().forEach(removal -> planned.add(removal.asStop()));
        List<Plan.Stop> verified = new ArrayList<>();
        for (Plan.Stop stop : planned) {
            Optional<String> refusal = recheck(stop);
            if (refusal.isPresent()) {
                ledger.event(stop, Outcome.refused(refusal.get()));
            } else {
                verified.add(stop);
            }
        }
        return verified;
    }

    private Optional<String> recheck(Plan.Stop stop) {
        try {
            VmDocument vm = documents.vm(stop.nodePool(), stop.node());
            DrainDocument drain = stop.kind() == StopKind.DRAINED || stop.kind() == StopKind.REMOVED
                    || stop.kind().failedBoot() ? documents.drain(stop.node()) : null;
            return StopGuard.refusal(stop.kind(), vm, drain);
        } catch (StoreException e) {
            return Optional.of("the store cannot be read to confirm it: " + e.getMessage());
        }
    }

    /** Writes the calls about to be made as pending; if that fails, none is made. */
    private boolean writeIntents(List<Plan.Stop> stops, List<Plan.Action> cloudWork) {
        ScalerStateDocument intended = ledger.state();
        // One copy of the records for all the intents: one per intent was a fifth of a 5,000-node replay's time.
        SortedMap<String, InstanceRecord> records = new TreeMap<>(intended.instances());
        for (Plan.Stop stop : stops) {
            records.put(stop.instance().id(), records.getOrDefault(stop.instance().id(), InstanceRecord.blank())
                    .withPending(new InstanceRecord.Pending(stop.kind(), now, stop.reason())));
        }
        for (Plan.Start start : plan.starts()) {
            records.put(start.instance().id(), records.getOrDefault(start.instance().id(), InstanceRecord.blank())
                    .withPending(new InstanceRecord.Pending(null, now, start.reason())));
        }
        intended = intended.withInstances(records);
        if (plan.create() != null) {
            intended = intended.withPendingCreate(new ScalerStateDocument.PendingCreate(plan.create().count(), now,
                    plan.create().reason())).grown(now);
        }
        String failure = ledger.save(intended);
        if (failure == null) {
            ScalerStateDocument saved = intended;
            ledger.update(state -> saved);
            return true;
        }
        cloudWork.forEach(action -> ledger.event(action, Outcome.failed("not attempted: " + failure)));
        return false;
    }

    private void stop(List<Plan.Stop> stops, StopAction action) throws InterruptedException {
        if (stops.isEmpty()) {
            return;
        }
        List<Instance> instances = stops.stream().map(Plan.Stop::instance).toList();
        if (ledger.throttled()) {
            ledger.settle(instances);
            return;
        }
        InstanceResults results;
        try {
            results = pool.provider().stop(instances, action);
        } catch (CloudException e) {
            results = InstanceResults.allFailed(instances, e);
        }
        String how = " (" + action.setting() + ")";
        for (Plan.Stop stop : stops) {
            Instance instance = stop.instance();
            List<String> subject = List.of(instance.id());
            CloudException failure = results.failed().get(instance);
            if (failure != null) {
                ledger.updateRecord(instance, r -> r.withPending(null));
                ledger.noteThrottle(failure);
                ledger.event(stop.event(), subject, stop.reason() + how, Outcome.failed(failure.getMessage()));
                continue;
            }
            String unfinished = results.unfinished().get(instance);
            if (unfinished != null) {
                // The intent stays pending: the next cycle records the stop once the listing shows it stopped.
                ledger.event(stop.event(), subject, stop.reason() + how, Outcome.unfinished(unfinished));
                continue;
            }
            ledger.updateRecord(instance, r -> r.stopped(now, stop.kind(), stop.reason()));
            if (pool.config().healthChecked()) {
                documents.forgetHealthCheck(stop.node());
            }
            if (stop.kind().failedBoot()) {
                ledger.countFailedBoot("instance " + instance.id() + ": " + stop.reason());
            }
            ledger.event(stop.event(), subject, stop.reason() + how, Outcome.OK);
            if (stop.kind() == StopKind.POWER_SAVING) {
                documents.forgetPowerRequest(stop.node());
            }
        }
    }

    private void create() throws InterruptedException {
        Plan.Create create = plan.create();
        if (create == null) {
            return;
        }
        if (ledger.throttled() || !context.gate().open()) {
            ledger.update(state -> state.withPendingCreate(null));
            return;
        }
        CreateResult result;
        try {
            result = pool.provider().create(create.count());
        } catch (CloudException e) {
            result = new CreateResult(List.of(), e);
        }
        ledger.update(state -> state.withPendingCreate(null));
        for (Instance instance : result.created()) {
            ledger.updateRecord(instance, r -> r.started(now, create.reason()));
        }
        if (!result.created().isEmpty()) {
            ledger.event(EventKind.CREATE, result.created().stream().map(Instance::id).toList(), create.reason(),
                    Outcome.OK);
        }
        for (CreateResult.Sealing sealing : result.sealed()) {
            ledger.update(state -> state.withSealed(sealing.scaleSet(), now + ": " + sealing.reason()));
            ledger.event(EventKind.SEALED, List.of(sealing.scaleSet()), sealing.reason() + "; no more growth is "
                    + "asked of it", Outcome.OK);
        }
        if (result.failure() != null) {
            ledger.noteThrottle(result.failure());
            ledger.noteCapacity(result.failure());
            ledger.event(EventKind.CREATE, List.of(), (create.count() - result.created().size()) + " instances: "
                    + create.reason(), Outcome.failed(result.failure().getMessage()));
        }
    }

    /** The provider's housekeeping (sealed scale sets emptied and deleted), each step an event. */
    private void tidy() throws InterruptedException {
        if (ledger.throttled() || !context.gate().open() || !plan.instancesKnown()) {
            return;
        }
        try {
            for (String done : pool.provider().tidy()) {
                ledger.event(EventKind.TIDY, List.of(), done, Outcome.OK);
            }
        } catch (CloudException e) {
            ledger.noteThrottle(e);
            ledger.event(EventKind.TIDY, List.of(), "tidying " + pool.provider().describe(),
                    Outcome.failed(e.getMessage()));
        }
    }
}
