package io.hpcscale.scaler.run;

import io.hpcscale.common.store.StoreException;
import io.hpcscale.scaler.cloud.AccessDeniedException;
import io.hpcscale.scaler.cloud.CapacityException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceResults;
import io.hpcscale.scaler.cloud.NotFoundException;
import io.hpcscale.scaler.cloud.QuotaException;
import io.hpcscale.scaler.cloud.ThrottledException;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.plan.Plan;
import io.hpcscale.scaler.plan.StartGuard;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The plan's starts, carried out: each re-checked by {@link StartGuard} on a fresh read just before the call, then
 * asked of the cloud as one batch. A quota refusal of several is tried once more with as many as the quota has room
 * for, when the cloud says how many that is, else with half as many until one fits or one is refused too
 * ({@link QuotaRetry}); capacity and quota refusals put the pool in backoff.
 */
final class StartCalls {
    private final PoolRuntime pool;
    private final Instant now;
    private final ActionGate gate;
    private final PoolDocuments documents;
    private final PoolLedger ledger;

    StartCalls(PoolRuntime pool, Instant now, ActionGate gate, PoolDocuments documents, PoolLedger ledger) {
        this.pool = pool;
        this.now = now;
        this.gate = gate;
        this.documents = documents;
        this.ledger = ledger;
    }

    void run(List<Plan.Start> starts) throws InterruptedException {
        List<Plan.Start> attempt = verified(starts);
        boolean triedWhatFits = false;
        Set<String> checksForgotten = new HashSet<>();
        while (!attempt.isEmpty()) {
            if (ledger.throttled() || !gate.open()) {
                ledger.settle(instances(attempt));
                if (!ledger.throttled()) {
                    Outcome refused = Outcome.refused(gate.closedBecause());
                    attempt.forEach(s -> ledger.event(s, refused));
                }
                return;
            }
            attempt = withLastChecksForgotten(attempt, checksForgotten);
            if (attempt.isEmpty()) {
                return;
            }
            InstanceResults results = call(instances(attempt));
            List<Plan.Start> failed = recordStarted(attempt, results);
            Map<Instance, CloudException> failures = results.failed();
            Optional<QuotaRetry> retry = QuotaRetry.after(failed.stream().map(f -> failures.get(f.instance()))
                    .toList(), triedWhatFits);
            if (retry.isEmpty()) {
                recordFailed(failed, failures);
                return;
            }
            int fit = retry.get().count();
            List<Plan.Start> dropped = failed.subList(fit, failed.size());
            ledger.settle(instances(dropped));
            ledger.event(EventKind.START, dropped.stream().map(s -> s.instance().id()).toList(),
                    dropped.get(0).reason(), Outcome.failed("quota; retrying with " + (retry.get().whatFits()
                            ? "the " + fit + " that fit" : fit + " instances")));
            attempt = new ArrayList<>(failed.subList(0, fit));
            triedWhatFits = retry.get().whatFits();
        }
    }

    /**
     * The starts that {@link StartGuard} still allows on a fresh read of each node, read just before the call: an
     * administrator may have marked a node since the agent's read the plan was made from. A start refused loses its
     * pending mark: it is not asked.
     */
    private List<Plan.Start> verified(List<Plan.Start> starts) {
        List<Plan.Start> verified = new ArrayList<>();
        for (Plan.Start start : starts) {
            Optional<String> refusal;
            try {
                refusal = StartGuard.refusal(documents.vm(start.nodePool(), start.node()));
            } catch (StoreException e) {
                refusal = Optional.of("the store cannot be read to confirm it: " + e.getMessage());
            }
            if (refusal.isPresent()) {
                ledger.settle(List.of(start.instance()));
                ledger.event(start, Outcome.refused(refusal.get()));
            } else {
                verified.add(start);
            }
        }
        return verified;
    }

    /**
     * A hibernated node resumes with its scheduler daemon running, so its last boot's passed check would let the
     * agent return it to service before it checks again ({@code hpcscale-node-resume}): in a checked pool that
     * check is forgotten just before the resume is asked (once the scaler knows it may call, so that a scaler that
     * lost its lease forgets nothing of a node another may have resumed), and a resume whose check cannot be
     * forgotten is not asked. A boot needs none of this: the node checks itself before its daemon starts. The stop
     * forgot the check only if the cloud said it was done, which a Flexible scale set never says at once.
     *
     * @param forgotten nodes whose check this run forgot already (a quota retry asks again)
     */
    private List<Plan.Start> withLastChecksForgotten(List<Plan.Start> attempt, Set<String> forgotten) {
        if (!pool.config().healthChecked()) {
            return attempt;
        }
        List<Plan.Start> asked = new ArrayList<>();
        for (Plan.Start start : attempt) {
            if (!start.instance().hibernated() || forgotten.contains(start.node())) {
                asked.add(start);
                continue;
            }
            Outcome forgot = documents.forgetHealthCheck(start.node());
            if (forgot.failed()) {
                ledger.settle(List.of(start.instance()));
                ledger.event(start, Outcome.refused("its node's last health check cannot be forgotten before it "
                        + "resumes (" + forgot.detail() + "): it would serve before its check runs again"));
            } else {
                forgotten.add(start.node());
                asked.add(start);
            }
        }
        return asked;
    }

    private InstanceResults call(List<Instance> instances) throws InterruptedException {
        try {
            return pool.provider().start(instances);
        } catch (CloudException e) {
            return InstanceResults.allFailed(instances, e);
        }
    }

    /** Records the starts that took (one event per reason a start is unfinished); @return those that failed */
    private List<Plan.Start> recordStarted(List<Plan.Start> attempt, InstanceResults results) {
        List<Plan.Start> failed = new ArrayList<>();
        List<String> started = new ArrayList<>();
        // One event per reason a start is unfinished: a hundred Flexible starts sent at once are one line.
        Map<String, List<String>> unfinishedBecause = new LinkedHashMap<>();
        for (Plan.Start start : attempt) {
            if (results.failed().containsKey(start.instance())) {
                failed.add(start);
                continue;
            }
            started(start);
            String unfinished = results.unfinished().get(start.instance());
            if (unfinished != null) {
                unfinishedBecause.computeIfAbsent(unfinished, u -> new ArrayList<>()).add(start.instance().id());
            } else {
                started.add(start.instance().id());
            }
        }
        String reason = attempt.get(0).reason();
        if (!started.isEmpty()) {
            ledger.event(EventKind.START, started, reason, Outcome.OK);
        }
        unfinishedBecause.forEach((why, ids) -> ledger.event(EventKind.START, ids, reason, Outcome.unfinished(why)));
        return failed;
    }

    private void started(Plan.Start start) {
        ledger.updateRecord(start.instance(), r -> r.started(now, start.reason()));
        if (start.powerRequest()) {
            documents.forgetPowerRequest(start.node());
        }
        if (start.withdrawDrain()) {
            ledger.event(EventKind.CANCEL_DRAIN, List.of(start.node()), "its instance was started again",
                    documents.withdrawDrain(start.node()));
        }
    }

    private void recordFailed(List<Plan.Start> failed, Map<Instance, CloudException> failures) {
        for (Plan.Start start : failed) {
            CloudException failure = failures.get(start.instance());
            if (refusedBeforeActing(failure)) {
                ledger.updateRecord(start.instance(), r -> r.withPending(null));
            }
            ledger.noteThrottle(failure);
            ledger.noteCapacity(failure);
            ledger.event(start, Outcome.failed(failure.getMessage()));
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

    private static List<Instance> instances(List<Plan.Start> starts) {
        return starts.stream().map(Plan.Start::instance).toList();
    }
}
