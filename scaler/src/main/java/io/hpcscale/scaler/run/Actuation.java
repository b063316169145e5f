package io.hpcscale.scaler.run;

import io.hpcscale.common.logging.LogFields;
import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.CosmosIds;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.InstanceRecord;
import io.hpcscale.common.model.LastAction;
import io.hpcscale.common.model.PowerDocument;
import io.hpcscale.common.model.RemovalRecord;
import io.hpcscale.common.model.ScalerStateDocument;
import io.hpcscale.common.model.StopKind;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.EtagConflictException;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.scaler.cloud.AccessDeniedException;
import io.hpcscale.scaler.cloud.CapacityException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.CreateResult;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceResults;
import io.hpcscale.scaler.cloud.NotFoundException;
import io.hpcscale.scaler.cloud.QuotaException;
import io.hpcscale.scaler.cloud.ThrottledException;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.plan.Plan;
import io.hpcscale.scaler.plan.PoolBackoff;
import io.hpcscale.scaler.plan.StartGuard;
import io.hpcscale.scaler.plan.StopGuard;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.fixed.TargetSource;
import io.hpcscale.scaler.fixed.TargetUnavailableException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out one pool's plan and records what came of it. Every action is an event. Before the first call to the
 * cloud, the actions about to be asked are written to the pool's state as pending, so that a scaler killed during
 * the call finds out, when it starts again, what may have happened; once the outcomes are known they replace the
 * pending marks. Stops are re-checked by {@link StopGuard} on a fresh read just before the call.
 */
final class Actuation {
    private static final Logger log = LoggerFactory.getLogger(Actuation.class);

    private final PoolRuntime pool;
    private final Plan plan;
    private final Instant now;
    private final CycleContext context;
    private final DocumentStore store;
    private final List<ScalerEvent> recorded = new ArrayList<>();
    private ScalerStateDocument state;
    private ScalerStateDocument stored;
    private String etag;
    private boolean throttled;
    private boolean drainsChanged;
    private String problem;

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
        this.store = context.store();
        this.state = observed;
        this.stored = loaded.state();
        this.etag = loaded.etag();
    }

    /** The pool's state as this actuation left it: what the next plan of the pool starts from. */
    ScalerStateDocument state() {
        return state;
    }

    /** Why the pool's outcome could not be recorded, or null. */
    String problem() {
        return problem;
    }

    List<ScalerEvent> run() throws InterruptedException {
        for (Plan.Found found : plan.found()) {
            ScalerEvent event = new ScalerEvent(now, pool.name(), found.kind(), List.of(found.instance()),
                    found.message(), Outcome.OK);
            recorded.add(event);
            context.events().action(event);
        }
        for (Plan.Note note : plan.notes()) {
            refusal(note.kind(), List.of(), note.message());
        }
        if (context.dryRun()) {
            logDryRun();
            return recorded;
        }
        cancelDrains();
        requestDrains();
        forgetDonePowerRequests();
        acceptRemovals();
        lowerCounts();
        answerRemovals();
        List<Plan.Stop> stops = verifiedStops();
        List<Plan.Action> cloudWork = new ArrayList<>(stops);
        cloudWork.addAll(plan.starts());
        if (plan.create() != null) {
            cloudWork.add(plan.create());
        }
        if (!cloudWork.isEmpty() && gateClosed(cloudWork)) {
            commit();
            return recorded;
        }
        if (!cloudWork.isEmpty() && !writeIntents(stops, cloudWork)) {
            markDrainsChanged();
            return recorded;
        }
        stop(stops);
        start();
        create();
        tidy();
        commit();
        markDrainsChanged();
        return recorded;
    }

    /** Tells the agents, through the marker they check every few seconds, that a drain was asked or withdrawn. */
    private void markDrainsChanged() {
        if (drainsChanged) {
            storeWrite(() -> store.upsert(List.of(new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, now))));
        }
    }

    private void logDryRun() {
        plan.actions().forEach(action -> event(action, Outcome.DRY_RUN));
    }

    private void cancelDrains() {
        for (Plan.CancelDrain cancel : plan.cancels()) {
            Outcome outcome = storeWrite(() -> store.delete(List.of(drainKey(cancel.node()))));
            drainsChanged |= outcome.ok();
            event(cancel, outcome);
        }
    }

    private void forgetDonePowerRequests() {
        for (Plan.PowerDone done : plan.powerDone()) {
            Outcome outcome = storeWrite(() -> store.delete(List.of(powerKey(done.node()))));
            event(done, outcome);
        }
    }

    private void requestDrains() {
        for (Plan.DrainRequest drain : plan.drains()) {
            String node = drain.node();
            Outcome outcome = storeWrite(() -> store.upsert(List.of(
                    DrainDocument.request(pool.name(), node, drain.reason(), now))));
            drainsChanged |= outcome.ok();
            event(drain, outcome);
        }
    }

    /** The planned stops that {@link StopGuard} still allows on a fresh read of each node and its drain request. */
    private List<Plan.Stop> verifiedStops() {
        List<Plan.Stop> verified = new ArrayList<>();
        List<Plan.Stop> planned = new ArrayList<>(plan.stops());
        plan.removals().forEach(removal -> planned.add(removal.asStop()));
        for (Plan.Stop stop : planned) {
            Optional<String> refusal = recheck(stop);
            if (refusal.isPresent()) {
                event(stop, Outcome.refused(refusal.get()));
            } else {
                verified.add(stop);
            }
        }
        return verified;
    }

    /**
     * The planned starts that {@link StartGuard} still allows on a fresh read of each node, read just before the
     * call: an administrator may have marked a node since the agent's read the plan was made from. A start refused
     * loses its pending mark: it is not asked.
     */
    private List<Plan.Start> verifiedStarts() {
        List<Plan.Start> verified = new ArrayList<>();
        for (Plan.Start start : plan.starts()) {
            Optional<String> refusal;
            try {
                refusal = StartGuard.refusal(readVm(start.nodePool(), start.node()));
            } catch (StoreException e) {
                refusal = Optional.of("the store cannot be read to confirm it: " + e.getMessage());
            }
            if (refusal.isPresent()) {
                settle(List.of(start.instance()));
                event(start, Outcome.refused(refusal.get()));
            } else {
                verified.add(start);
            }
        }
        return verified;
    }

    private VmDocument readVm(String nodePool, String node) {
        return store.read(new DocumentKey(nodePool, CosmosIds.encode(node)), VmDocument.class)
                .map(DocumentStore.Versioned::document).orElse(null);
    }

    private Optional<String> recheck(Plan.Stop stop) {
        String node = stop.node();
        try {
            VmDocument vm = readVm(stop.nodePool(), node);
            DrainDocument drain = stop.kind() == StopKind.DRAINED || stop.kind() == StopKind.REMOVED
                    || stop.kind() == StopKind.BOOT_FAILURE
                    ? store.read(drainKey(node), DrainDocument.class).map(DocumentStore.Versioned::document)
                            .orElse(null)
                    : null;
            return StopGuard.refusal(stop.kind(), vm, drain);
        } catch (StoreException e) {
            return Optional.of("the store cannot be read to confirm it: " + e.getMessage());
        }
    }

    /** No call begins once the scaler shuts down or has lost its lease; the planned calls are recorded as refused. */
    private boolean gateClosed(List<Plan.Action> cloudWork) {
        String closed = context.gate().closedBecause();
        if (closed == null) {
            return false;
        }
        cloudWork.forEach(action -> event(action, Outcome.refused(closed)));
        return true;
    }

    /** Writes the calls about to be made as pending; if that fails, none is made. */
    private boolean writeIntents(List<Plan.Stop> stops, List<Plan.Action> cloudWork) {
        ScalerStateDocument intended = state;
        for (Plan.Stop stop : stops) {
            intended = intended.withInstance(stop.instance().id(), record(intended, stop.instance())
                    .withPending(new InstanceRecord.Pending(stop.kind(), now, stop.reason())));
        }
        for (Plan.Start start : plan.starts()) {
            intended = intended.withInstance(start.instance().id(), record(intended, start.instance())
                    .withPending(new InstanceRecord.Pending(null, now, start.reason())));
        }
        if (plan.create() != null) {
            intended = intended.withPendingCreate(new ScalerStateDocument.PendingCreate(plan.create().count(), now,
                    plan.create().reason())).grown(now);
        }
        String failure = save(intended);
        if (failure == null) {
            state = intended;
            return true;
        }
        cloudWork.forEach(action -> event(action, Outcome.failed("not attempted: " + failure)));
        return false;
    }

    /** Stops with the pool's stop action; instances whose node asked to be removed are deleted. */
    private void stop(List<Plan.Stop> stops) throws InterruptedException {
        stop(stops.stream().filter(st -> st.kind() != StopKind.REMOVED).toList(), pool.config().stopAction());
        stop(stops.stream().filter(st -> st.kind() == StopKind.REMOVED).toList(), StopAction.DELETE);
    }

    private void stop(List<Plan.Stop> stops, StopAction action) throws InterruptedException {
        if (stops.isEmpty()) {
            return;
        }
        if (throttled) {
            settle(stops.stream().map(Plan.Stop::instance).toList());
            return;
        }
        InstanceResults results;
        try {
            results = pool.provider().stop(stops.stream().map(Plan.Stop::instance).toList(), action);
        } catch (CloudException e) {
            results = InstanceResults.allFailed(stops.stream().map(Plan.Stop::instance).toList(), e);
        }
        String how = " (" + action.setting() + ")";
        for (Plan.Stop stop : stops) {
            Instance instance = stop.instance();
            CloudException failure = results.failed().get(instance);
            if (failure != null) {
                state = state.withInstance(instance.id(), record(state, instance).withPending(null));
                noteThrottle(failure);
                event(stop.event(), List.of(instance.id()), stop.reason() + how, Outcome.failed(failure.getMessage()));
                continue;
            }
            String unfinished = results.unfinished().get(instance);
            if (unfinished != null) {
                // The intent stays pending: the next cycle records the stop once the listing shows it stopped.
                event(stop.event(), List.of(instance.id()), stop.reason() + how, Outcome.unfinished(unfinished));
                continue;
            }
            state = state.withInstance(instance.id(), record(state, instance).stopped(now, stop.kind(),
                    stop.reason()));
            if (stop.kind() == StopKind.BOOT_FAILURE) {
                countFailedBoot();
            }
            event(stop.event(), List.of(instance.id()), stop.reason() + how, Outcome.OK);
            if (stop.kind() == StopKind.POWER_SAVING) {
                storeWrite(() -> store.delete(List.of(powerKey(stop.node()))));
            }
        }
    }

    /**
     * Takes the plan's removal requests on: each is recorded in the pool's state, and only once that is stored is
     * its message deleted. From then on the record drives the removal; a scaler killed before the store has the
     * record gets the message again.
     */
    private void acceptRemovals() {
        if (plan.acceptances().isEmpty()) {
            return;
        }
        ScalerStateDocument accepted = state;
        for (Plan.Acceptance acceptance : plan.acceptances()) {
            accepted = accepted.withRemoval(acceptance.instance(), RemovalRecord.accepted(now,
                    acceptance.message().request().requestedBy(), pool.target().isPresent()));
        }
        String failure = save(accepted);
        for (Plan.Acceptance acceptance : plan.acceptances()) {
            if (failure == null) {
                context.removals().done(acceptance.message());
                event(acceptance, Outcome.OK);
            } else {
                event(acceptance, Outcome.failed("not taken on: " + failure + "; its message comes back"));
            }
        }
        if (failure == null) {
            state = accepted;
        }
    }

    /**
     * Lowers the fixed count once for each removal taken on. The value read and the value to write are stored
     * before the write, so that a scaler repeating it after a crash can tell: the count still at the value read is
     * written again, one at the value written was written, and any other value was set by someone since and stands.
     */
    private void lowerCounts() throws InterruptedException {
        TargetSource target = pool.target().orElse(null);
        // Lowerings already begun first, and none after a failure: a later one must not read a count an earlier one
        // has not taken off yet, or both would write the same value.
        List<Map.Entry<String, RemovalRecord>> unlowered = state.removals().entrySet().stream()
                .filter(e -> !e.getValue().lowered())
                .sorted(Comparator.comparing((Map.Entry<String, RemovalRecord> e) -> e.getValue().countFrom() == null)
                        .thenComparing(e -> e.getValue().at()))
                .toList();
        for (Map.Entry<String, RemovalRecord> entry : unlowered) {
            if (target == null) {
                state = state.withRemoval(entry.getKey(), entry.getValue().asLowered());
                continue;
            }
            if (!context.gate().open() || !lowerCount(target, entry.getKey(), entry.getValue())) {
                return;
            }
        }
    }

    /** @return false when the count could not be read or written: the next cycle tries again */
    private boolean lowerCount(TargetSource target, String instance, RemovalRecord removal)
            throws InterruptedException {
        try {
            OptionalInt read = target.read();
            if (read.isEmpty()) {
                event(EventKind.TARGET_LOWERED, List.of(instance), "for its removal", Outcome.failed(
                        target.describe() + " is not set; the removal is done, the count set next"));
                state = state.withRemoval(instance, removal.asLowered());
                return true;
            }
            int count = read.getAsInt();
            if (removal.countFrom() != null && count != removal.countFrom()) {
                state = state.withRemoval(instance, removal.asLowered());
                if (count != removal.countTo()) {
                    refusal(EventKind.TARGET_LOWERED, List.of(instance), target.describe() + " is " + count
                            + ", set since this removal read " + removal.countFrom() + ": it stands");
                }
                return true;
            }
            RemovalRecord lowering = removal.countFrom() != null ? removal
                    : removal.lowering(count, Math.max(0, count - 1));
            if (removal.countFrom() == null) {
                state = state.withRemoval(instance, lowering);
                if (save(state) != null) {
                    return false;
                }
            }
            target.write(lowering.countTo(), "removal of instance " + instance);
            state = state.withRemoval(instance, lowering.asLowered());
            event(EventKind.TARGET_LOWERED, List.of(instance), target.describe() + " " + lowering.countFrom()
                    + " -> " + lowering.countTo() + " for its removal", Outcome.OK);
            return true;
        } catch (TargetUnavailableException e) {
            event(EventKind.TARGET_LOWERED, List.of(instance), "for its removal; tried again next cycle",
                    Outcome.failed(e.getMessage()));
            return false;
        }
    }

    /** Messages of removals taken on already are deleted; those that cannot be taken on are set aside. */
    private void answerRemovals() {
        for (Plan.RemovalAnswer answer : plan.removalAnswers()) {
            if (answer.setAside()) {
                context.removals().setAside(answer.message(), pool.name(), answer.reason(), now, context.events());
            } else {
                event(answer, Outcome.OK);
                context.removals().done(answer.message());
            }
        }
    }

    /**
     * Starts the planned instances. A quota refusal of several is tried once more with as many as the quota has room
     * for, when the cloud says how many that is, else with half as many until one fits or one is refused too; capacity
     * and quota refusals put the pool in backoff.
     */
    private void start() throws InterruptedException {
        List<Plan.Start> attempt = verifiedStarts();
        boolean triedWhatFits = false;
        while (!attempt.isEmpty()) {
            if (throttled || !context.gate().open()) {
                settle(attempt.stream().map(Plan.Start::instance).toList());
                if (!throttled) {
                    Outcome refused = Outcome.refused(context.gate().closedBecause());
                    attempt.forEach(s -> event(s, refused));
                }
                return;
            }
            List<Instance> instances = attempt.stream().map(Plan.Start::instance).toList();
            InstanceResults results;
            try {
                results = pool.provider().start(instances);
            } catch (CloudException e) {
                results = InstanceResults.allFailed(instances, e);
            }
            List<Plan.Start> failed = new ArrayList<>();
            List<String> started = new ArrayList<>();
            // One event per reason a start is unfinished: a hundred Flexible starts sent at once are one line.
            Map<String, List<String>> unfinishedBecause = new LinkedHashMap<>();
            for (Plan.Start start : attempt) {
                if (results.failed().containsKey(start.instance())) {
                    failed.add(start);
                } else {
                    started(start);
                    String unfinished = results.unfinished().get(start.instance());
                    if (unfinished != null) {
                        unfinishedBecause.computeIfAbsent(unfinished, u -> new ArrayList<>())
                                .add(start.instance().id());
                    } else {
                        started.add(start.instance().id());
                    }
                }
            }
            if (!started.isEmpty()) {
                event(EventKind.START, started, attempt.get(0).reason(), Outcome.OK);
            }
            String reason = attempt.get(0).reason();
            unfinishedBecause.forEach((why, ids) -> event(EventKind.START, ids, reason, Outcome.unfinished(why)));
            Map<Instance, CloudException> failures = results.failed();
            Optional<QuotaRetry> retry = QuotaRetry.after(failed.stream().map(f -> failures.get(f.instance()))
                    .toList(), triedWhatFits);
            if (retry.isPresent()) {
                int fit = retry.get().count();
                List<Plan.Start> smaller = failed.subList(0, fit);
                List<Plan.Start> dropped = failed.subList(fit, failed.size());
                settle(dropped.stream().map(Plan.Start::instance).toList());
                event(EventKind.START, dropped.stream().map(s -> s.instance().id()).toList(),
                        dropped.get(0).reason(), Outcome.failed("quota; retrying with " + (retry.get().whatFits()
                                ? "the " + smaller.size() + " that fit" : smaller.size() + " instances")));
                attempt = new ArrayList<>(smaller);
                triedWhatFits = retry.get().whatFits();
                continue;
            }
            for (Plan.Start start : failed) {
                CloudException failure = results.failed().get(start.instance());
                if (refusedBeforeActing(failure)) {
                    state = state.withInstance(start.instance().id(), record(state, start.instance())
                            .withPending(null));
                }
                noteThrottle(failure);
                noteCapacity(failure);
                event(EventKind.START, List.of(start.instance().id()), start.reason(),
                        Outcome.failed(failure.getMessage()));
            }
            return;
        }
    }

    private void started(Plan.Start start) {
        Instance instance = start.instance();
        state = state.withInstance(instance.id(), record(state, instance).started(now, start.reason()));
        if (start.powerRequest()) {
            storeWrite(() -> store.delete(List.of(powerKey(start.node()))));
        }
        if (start.withdrawDrain()) {
            Outcome outcome = storeWrite(() -> store.delete(List.of(drainKey(start.node()))));
            drainsChanged |= outcome.ok();
            event(EventKind.CANCEL_DRAIN, List.of(start.node()), "its instance was started again", outcome);
        }
    }

    private void create() throws InterruptedException {
        Plan.Create create = plan.create();
        if (create == null) {
            return;
        }
        if (throttled || !context.gate().open()) {
            state = state.withPendingCreate(null);
            return;
        }
        CreateResult result;
        try {
            result = pool.provider().create(create.count());
        } catch (CloudException e) {
            result = new CreateResult(List.of(), e);
        }
        state = state.withPendingCreate(null);
        for (Instance instance : result.created()) {
            state = state.withInstance(instance.id(), record(state, instance).started(now, create.reason()));
        }
        if (!result.created().isEmpty()) {
            event(EventKind.CREATE, result.created().stream().map(Instance::id).toList(), create.reason(),
                    Outcome.OK);
        }
        for (CreateResult.Sealing sealing : result.sealed()) {
            state = state.withSealed(sealing.scaleSet(), now + ": " + sealing.reason());
            event(EventKind.SEALED, List.of(sealing.scaleSet()), sealing.reason() + "; no more growth is asked of "
                    + "it", Outcome.OK);
        }
        if (result.failure() != null) {
            noteThrottle(result.failure());
            noteCapacity(result.failure());
            event(EventKind.CREATE, List.of(), (create.count() - result.created().size()) + " instances: "
                    + create.reason(), Outcome.failed(result.failure().getMessage()));
        }
    }

    /** The provider's housekeeping (sealed scale sets emptied and deleted), each step an event. */
    private void tidy() throws InterruptedException {
        if (throttled || !context.gate().open() || !plan.instancesKnown()) {
            return;
        }
        try {
            for (String done : pool.provider().tidy()) {
                event(EventKind.TIDY, List.of(), done, Outcome.OK);
            }
        } catch (CloudException e) {
            noteThrottle(e);
            event(EventKind.TIDY, List.of(), "tidying " + pool.provider().describe(), Outcome.failed(e.getMessage()));
        }
    }

    /**
     * Whether the cloud said no before doing anything (throttled, no capacity, over quota, denied, not found). Any
     * other failure may have come after the cloud acted (a lost answer), so the start stays pending: the next
     * listing settles it, and an instance it finds active is timed as a boot from the start, never forgotten.
     */
    private static boolean refusedBeforeActing(CloudException failure) {
        return failure instanceof ThrottledException || failure instanceof CapacityException
                || failure instanceof QuotaException || failure instanceof AccessDeniedException
                || failure instanceof NotFoundException;
    }

    /** Instances whose call was not made after all: their pending marks go. */
    private void settle(List<Instance> notCalled) {
        for (Instance instance : notCalled) {
            state = state.withInstance(instance.id(), record(state, instance).withPending(null));
        }
    }

    private void countFailedBoot() {
        boolean before = state.inBackoff(now);
        state = PoolBackoff.afterFailedBoot(state, pool.config(), now);
        if (!before && state.inBackoff(now)) {
            refusal(EventKind.BACKOFF, List.of(), state.backoffReason() + ": no instance is started until "
                    + state.backoffUntil());
        }
    }

    private void noteCapacity(CloudException e) {
        if (!(e instanceof CapacityException) && !(e instanceof QuotaException)) {
            return;
        }
        if (state.inBackoff(now)) {
            return;
        }
        String kind = e instanceof QuotaException ? "quota" : "capacity";
        state = PoolBackoff.afterRefusal(state, pool.config(), now, kind + " error: " + e.getMessage());
        refusal(EventKind.BACKOFF, List.of(), kind + " error, no instance is started until " + state.backoffUntil()
                + ": " + e.getMessage());
    }

    private void noteThrottle(CloudException e) {
        if (!(e instanceof ThrottledException throttle) || throttled) {
            return;
        }
        throttled = true;
        Instant until = now.plus(throttle.retryAfter());
        context.throttles().throttle(pool.provider().account(), until, e.getMessage());
        state = state.throttle(until, e.getMessage());
        refusal(EventKind.THROTTLED, List.of(), "the cloud asks to wait until " + until + ": " + e.getMessage());
    }

    /** Writes the pool's state if this cycle changed it. */
    /** @return whether the state as this cycle left it is stored */
    private boolean commit() {
        if (state.equals(stored)) {
            return true;
        }
        String failure = save(state);
        if (failure != null) {
            problem = "what this cycle did could not be recorded in the scaler's state: " + failure;
        }
        return failure == null;
    }

    /** @return null when saved, else why not */
    private String save(ScalerStateDocument next) {
        try {
            etag = context.states().write(next, etag);
            stored = next;
            return null;
        } catch (EtagConflictException e) {
            String why = "another scaler changed the state of pool " + pool.name() + " at the same time ("
                    + e.getMessage() + ")";
            log.atError().addKeyValue(LogFields.POOL, pool.name())
                    .log("pool={} {}; is a second scaler running without the lease?", pool.name(), why);
            refusal(EventKind.STATE_UNAVAILABLE, List.of(), why);
            return why;
        } catch (StoreException e) {
            String why = "the scaler's state could not be written: " + e.getMessage();
            refusal(EventKind.STATE_UNAVAILABLE, List.of(), why);
            return why;
        }
    }

    private Outcome storeWrite(Runnable write) {
        try {
            write.run();
            return Outcome.OK;
        } catch (StoreException e) {
            return Outcome.failed(e.getMessage());
        }
    }

    private static InstanceRecord record(ScalerStateDocument state, Instance instance) {
        return state.instance(instance.id()).orElse(InstanceRecord.blank());
    }

    private void event(Plan.Action action, Outcome outcome) {
        event(action.event(), action.subjects(), action.description(), outcome);
    }

    private void event(EventKind kind, List<String> instances, String reason, Outcome outcome) {
        ScalerEvent event = new ScalerEvent(now, pool.name(), kind, instances, reason, outcome);
        recorded.add(event);
        context.events().action(event);
        if (outcome.ok()) {
            state = state.withLastAction(new LastAction(now, kind.wireName(), instances, reason, outcome.wire()));
        }
    }

    private void refusal(EventKind kind, List<String> instances, String reason) {
        ScalerEvent event = new ScalerEvent(now, pool.name(), kind, instances, reason, Outcome.REFUSED);
        recorded.add(event);
        context.events().refusal(event);
    }

    private DocumentKey drainKey(String node) {
        return new DocumentKey(pool.name(), DrainDocument.idFor(node));
    }

    private DocumentKey powerKey(String node) {
        return new DocumentKey(pool.name(), PowerDocument.idFor(node));
    }
}
