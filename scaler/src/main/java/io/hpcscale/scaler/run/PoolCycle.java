package io.hpcscale.scaler.run;

import io.hpcscale.common.logging.LogFields;
import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.model.WaitReasonsDocument;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.ThrottledException;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.plan.InstanceList;
import io.hpcscale.scaler.plan.PlanResult;
import io.hpcscale.scaler.plan.PoolState;
import io.hpcscale.scaler.plan.TargetReading;
import io.hpcscale.scaler.removal.RemovalMessage;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pool's part of a cycle: read what the scaler remembers of it, list its instances once, plan, and (unless only
 * planning) carry out the plan and record what came of it. A pool alone plans with its own partition's documents;
 * in a group ({@link GroupCycle}) it is given the jobs and nodes that are its share.
 */
final class PoolCycle {
    private static final Logger log = LoggerFactory.getLogger(PoolCycle.class);
    private final PoolRuntime pool;
    private final ClusterView view;
    private final Instant now;
    private final boolean act;
    private final CycleContext context;
    private final List<RemovalMessage.Request> removals;

    /** What the pool's part needs before it can plan: its remembered state and its instances. */
    record Prepared(ScalerStateStore.Loaded loaded, ScalerStateDocument state, InstanceList instances,
            TargetReading target) {
    }

    /** A pool's planned (and perhaps acted on) part, with its state as the actions left it. */
    record Finished(PoolOutcome outcome, PlanResult result, ScalerStateDocument stateAfter) {
    }

    /**
     * @param act      false to plan only: nothing is called, written or recorded
     * @param removals removal requests received this cycle for this pool
     */
    PoolCycle(PoolRuntime pool, ClusterView view, Instant now, boolean act, CycleContext context,
            List<RemovalMessage.Request> removals) {
        this.pool = pool;
        this.view = view;
        this.now = now;
        this.act = act;
        this.context = context;
        this.removals = List.copyOf(removals);
    }

    PoolRuntime pool() {
        return pool;
    }

    PoolOutcome run() throws InterruptedException {
        Preparation preparation = prepare();
        if (preparation.failed() != null) {
            return preparation.failed();
        }
        Finished finished = finish(preparation.prepared(), view.jobsOf(pool.name()), view.vmsOf(pool.name()), null);
        if (act) {
            // A pool alone: in a group another pool may serve the jobs this one cannot, so a group says nothing.
            tellUsers(finished.result().waitReasons());
        }
        return finished.outcome();
    }

    /** Either what the pool needs to plan, or the outcome of a pool that cannot be planned this cycle. */
    record Preparation(Prepared prepared, PoolOutcome failed) {
    }

    Preparation prepare() throws InterruptedException {
        String shapeProblem = pool.shapeProblem();
        if (shapeProblem != null) {
            return new Preparation(null, new PoolOutcome(pool.name(), null, List.of(), shapeProblem));
        }
        ScalerStateStore.Loaded loaded;
        try {
            loaded = context.states().read(pool.name());
        } catch (StoreException e) {
            String problem = "the scaler's state of the pool cannot be read: " + e.getMessage();
            if (act) {
                ScalerEvent event = new ScalerEvent(now, pool.name(), EventKind.STATE_UNAVAILABLE, List.of(),
                        problem, Outcome.REFUSED);
                context.events().refusal(event);
                context.events().endPoolCycle(pool.name());
            }
            return new Preparation(null, new PoolOutcome(pool.name(), null, List.of(), problem));
        }
        ScalerStateDocument state = loaded.state();
        Listing listing = list(state);
        if (listing.throttledUntil() != null && act && !context.dryRun()) {
            state = state.throttle(listing.throttledUntil(), listing.throttleReason());
        }
        // The target is read only when the cloud answered: a throttled account is not called again for it.
        TargetReading target = listing.instances().known() ? pool.readTarget() : null;
        return new Preparation(new Prepared(loaded, state, listing.instances(), target), null);
    }

    /** The planner's view of the pool, with these jobs and nodes as its share. */
    PoolState stateFor(Prepared prepared, List<JobDocument> jobs, List<VmDocument> vms, String fallback,
            ScalerStateDocument state) {
        return new PoolState(pool.config(), jobs, vms, view.drainsOf(pool.name()),
                view.powerRequestsOf(pool.name()), prepared.instances(), pool.provider().canCreate(),
                pool.provider().spot(), view.poolOfNode(), view.agentReadAt().get(pool.name()), state, now, fallback,
                prepared.target(), removals, pool.node(), view.notices(), view.health());
    }

    /** Plans with these jobs and nodes and, unless only planning, acts and records. */
    Finished finish(Prepared prepared, List<JobDocument> jobs, List<VmDocument> vms, String fallback)
            throws InterruptedException {
        pool.warnOnceIfNodesDiffer(vms);
        PoolState planned = stateFor(prepared, jobs, vms, fallback, prepared.state());
        PlanResult result = context.planner().plan(planned);
        PoolCensus census = PoolCensus.of(planned, result.plan());
        String problem = result.plan().instancesKnown() ? null
                : "its instances could not be listed: " + result.plan().instancesUnknownBecause();
        if (!act) {
            return new Finished(new PoolOutcome(pool.name(), result.plan(), List.of(), problem, census), result,
                    result.state());
        }
        Actuation actuation = new Actuation(pool, result.plan(), now, context, result.state(), prepared.loaded());
        List<ScalerEvent> events = actuation.run();
        context.events().endPoolCycle(pool.name());
        if (!context.dryRun()) {
            context.usage().record(pool.name(), census, now);
        }
        return new Finished(new PoolOutcome(pool.name(), result.plan(), events,
                problem != null ? problem : actuation.problem(), census), result, actuation.state());
    }

    /**
     * Writes why the pool's jobs wait when that changed (not when the plan could not say: null), and moves the marker
     * so that the agents show it at once.
     * A failed write is said and tried again next cycle, since what is stored still differs.
     */
    private void tellUsers(WaitReasonsDocument reasons) {
        if (reasons == null || context.dryRun() || context.gate().closedBecause() != null
                || reasons.equals(view.waitReasonsOf(pool.name()))) {
            return;
        }
        try {
            context.store().upsert(List.of(reasons, new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, now)));
        } catch (StoreException e) {
            log.atWarn().addKeyValue(LogFields.POOL, pool.name()).log("pool={} why its jobs wait could not be "
                    + "stored for the agents to show their users (tried again next cycle): {}", pool.name(),
                    e.getMessage());
        }
    }

    private record Listing(InstanceList instances, Instant throttledUntil, String throttleReason) {
    }

    /**
     * One list call, unless the pool's cloud account asked not to be called yet. A listing the cloud throttles is
     * an event, once, saying until when and why (Azure names the budget it ran out of): the pool's instances are
     * unknown until then, never "none", and status says so.
     */
    private Listing list(ScalerStateDocument state) throws InterruptedException {
        String account = pool.provider().account();
        CloudThrottles.Throttle throttle = context.throttles().of(account, now);
        if (throttle == null && state.throttled(now)) {
            throttle = new CloudThrottles.Throttle(state.throttledUntil(), state.throttleReason());
            context.throttles().throttle(account, throttle.until(), throttle.reason());
        }
        if (throttle != null) {
            return new Listing(InstanceList.unknown("the cloud asked not to be called until " + throttle.until()
                    + (throttle.reason() == null ? "" : ": " + throttle.reason())), null, null);
        }
        try {
            pool.provider().recall(state.growing());
            return new Listing(InstanceList.of(pool.provider().list()), null, null);
        } catch (ThrottledException e) {
            Instant until = now.plus(e.retryAfter());
            String why = e.getMessage() + "; next call after " + until;
            if (act && !context.dryRun()) {
                context.throttles().throttle(account, until, e.getMessage());
                context.events().refusal(new ScalerEvent(now, pool.name(), EventKind.THROTTLED, List.of(), why,
                        Outcome.REFUSED));
            }
            return new Listing(InstanceList.unknown(why), until, e.getMessage());
        } catch (CloudException e) {
            return new Listing(InstanceList.unknown(e.getMessage()), null, null);
        }
    }
}
