package io.hpcscale.scaler.run;

import io.hpcscale.common.logging.LogFields;
import io.hpcscale.common.store.EtagConflictException;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.scaler.cloud.CapacityException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.QuotaException;
import io.hpcscale.scaler.cloud.ThrottledException;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.LastAction;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.plan.Plan;
import io.hpcscale.scaler.plan.PoolBackoff;
import io.hpcscale.scaler.plan.ProtectedPool;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one pool's actuation records as it goes: the pool's state as each outcome changes it, the events, and the
 * ETag-conditional writes of the state. It also records what the cloud's refusals mean for the pool, as
 * {@link PoolBackoff} decides it: a capacity or quota error or a failed boot may put the pool in backoff, a 429
 * holds every further call of the cycle to the pool's provider.
 */
final class PoolLedger {
    private static final Logger log = LoggerFactory.getLogger(PoolLedger.class);

    private final PoolRuntime pool;
    private final Instant now;
    private final CycleContext context;
    private final List<ScalerEvent> recorded = new ArrayList<>();
    private ScalerStateDocument state;
    /**
     * Records changed since {@link #state} was last brought up to date: they go into it in one copy of its instances,
     * where one copy per instance made a cycle that starts a hundred instances of a 5,000-instance pool copy half a
     * million entries.
     */
    private final SortedMap<String, InstanceRecord> changedRecords = new TreeMap<>();
    private ScalerStateDocument stored;
    private String etag;
    private boolean throttled;
    private String problem;

    /**
     * @param observed the pool's state with this cycle's observations
     * @param loaded   the state as read at the start of the cycle, with its ETag
     */
    PoolLedger(PoolRuntime pool, Instant now, CycleContext context, ScalerStateDocument observed,
            ScalerStateStore.Loaded loaded) {
        this.pool = pool;
        this.now = now;
        this.context = context;
        this.state = observed;
        this.stored = loaded.state();
        this.etag = loaded.etag();
    }

    ScalerStateDocument state() {
        return current();
    }

    void update(UnaryOperator<ScalerStateDocument> change) {
        state = change.apply(current());
    }

    /** The instance's record as the state holds it now, or a blank one. */
    InstanceRecord record(Instance instance) {
        InstanceRecord changed = changedRecords.get(instance.id());
        return changed != null ? changed : state.instance(instance.id()).orElse(InstanceRecord.blank());
    }

    void updateRecord(Instance instance, UnaryOperator<InstanceRecord> change) {
        changedRecords.put(instance.id(), change.apply(record(instance)));
    }

    /** The state with every record changed since. */
    private ScalerStateDocument current() {
        if (!changedRecords.isEmpty()) {
            SortedMap<String, InstanceRecord> records = new TreeMap<>(state.instances());
            records.putAll(changedRecords);
            changedRecords.clear();
            state = state.withInstances(records);
        }
        return state;
    }

    /** Instances whose call was not made after all: their pending marks go. */
    void settle(List<Instance> notCalled) {
        notCalled.forEach(instance -> updateRecord(instance, r -> r.withPending(null)));
    }

    List<ScalerEvent> events() {
        return recorded;
    }

    /** Why the pool's outcome could not be recorded, or null. */
    String problem() {
        return problem;
    }

    /** Whether the cloud asked this cycle to wait: no further call is made to the pool's provider. */
    boolean throttled() {
        return throttled;
    }

    /** Writes the pool's state if this cycle changed it; a failure is the pool's problem. */
    void commit() {
        if (current().equals(stored)) {
            return;
        }
        String failure = save(state);
        if (failure != null) {
            problem = "what this cycle did could not be recorded in the scaler's state: " + failure;
        }
    }

    /** Writes {@code next}, ETag-conditional. @return null when saved, else why not */
    String save(ScalerStateDocument next) {
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

    void found(Plan.Found found) {
        ScalerEvent event = new ScalerEvent(now, pool.name(), found.kind(), List.of(found.instance()),
                found.message(), Outcome.OK);
        recorded.add(event);
        context.events().action(event);
    }

    void event(Plan.Action action, Outcome outcome) {
        event(action.event(), action.subjects(), action.description(), outcome);
    }

    /** An action's event; one done is the pool's last action. */
    void event(EventKind kind, List<String> instances, String reason, Outcome outcome) {
        ScalerEvent event = new ScalerEvent(now, pool.name(), kind, instances, reason, outcome);
        recorded.add(event);
        context.events().action(event);
        if (outcome.ok()) {
            state = state.withLastAction(new LastAction(now, kind.wireName(), instances, reason, outcome.wire()));
        }
    }

    void refusal(EventKind kind, List<String> instances, String reason) {
        ScalerEvent event = new ScalerEvent(now, pool.name(), kind, instances, reason, Outcome.REFUSED);
        recorded.add(event);
        context.events().refusal(event);
    }

    /**
     * A stop of a failed boot is done: it counts, enough in a row put the pool in backoff, and enough across
     * backoffs protect it.
     */
    void countFailedBoot(String why) {
        boolean before = current().inBackoff(now);
        boolean wasProtected = state.bootHealth().protectedNow();
        state = PoolBackoff.afterFailedBoot(current(), pool.config(), now, why);
        if (!before && state.inBackoff(now)) {
            refusal(EventKind.BACKOFF, List.of(), state.backoffReason() + ": no instance is started until "
                    + state.backoffUntil());
        }
        if (!wasProtected && state.bootHealth().protectedNow()) {
            refusal(EventKind.PROTECTED, List.of(), ProtectedPool.describe(state.bootHealth(), pool.config()));
        }
    }

    /** A capacity or quota refusal puts the pool in backoff, unless it is in backoff already. */
    void noteCapacity(CloudException e) {
        if (!(e instanceof CapacityException) && !(e instanceof QuotaException) || current().inBackoff(now)) {
            return;
        }
        String kind = e instanceof QuotaException ? "quota" : "capacity";
        state = PoolBackoff.afterRefusal(current(), pool.config(), now, kind + " error: " + e.getMessage());
        refusal(EventKind.BACKOFF, List.of(), kind + " error, no instance is started until " + state.backoffUntil()
                + ": " + e.getMessage());
    }

    /** A 429: the account's calls wait until its Retry-After, this pool's and every other pool's of the account. */
    void noteThrottle(CloudException e) {
        if (!(e instanceof ThrottledException throttle) || throttled) {
            return;
        }
        throttled = true;
        Instant until = now.plus(throttle.retryAfter());
        context.throttles().throttle(pool.provider().account(), until, e.getMessage());
        state = current().throttle(until, e.getMessage());
        refusal(EventKind.THROTTLED, List.of(), "the cloud asks to wait until " + until + ": " + e.getMessage());
    }
}
