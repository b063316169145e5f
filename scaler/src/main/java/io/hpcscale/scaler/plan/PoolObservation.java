package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.NoticeDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.documents.StopKind;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The first step of a cycle's planning: the scaler's memory of the pool (its state document) brought up to date
 * with the cloud's listing. An action recorded as pending was asked of the cloud by a scaler that did not live to
 * see its outcome: the listing settles it. Instances gone or stopped without hpcscale stopping them are found
 * (evicted, or stopped elsewhere), failed provisioning is counted as a failed boot when the instance was
 * hpcscale's, active instances no record explains are attributed to a pending growth or recorded as found, and
 * repeated Spot evictions put the pool in backoff. What it finds is written to the draft as found events and notes.
 */
final class PoolObservation {
    /** How soon after a growth an instance that vanishes counts as an overprovisioned extra. */
    static final Duration OVERPROVISION_WINDOW = Duration.ofMinutes(15);
    private final PoolState s;
    private final PoolConfig pool;
    private final Instant now;
    private final PlanDraft draft;
    private ScalerStateDocument memory;

    private PoolObservation(PoolState state, PlanDraft draft) {
        this.s = state;
        this.pool = state.pool();
        this.now = state.now();
        this.draft = draft;
        this.memory = state.state();
    }

    /** The pool's state document settled against the listing; the listing must be known. */
    static ScalerStateDocument settle(PoolState state, PlanDraft draft) {
        PoolObservation observation = new PoolObservation(state, draft);
        observation.settleWithListing();
        observation.backOffOnRepeatedEvictions();
        return observation.memory;
    }

    /**
     * Brings the stored state up to date with the listing. An action recorded as pending was asked of the cloud
     * by a scaler that did not live to see its outcome: the listing settles it. Active instances that no record
     * explains were created by a pending create, or are recorded as found active.
     */
    private void settleWithListing() {
        Set<String> listed = s.instances().instances().stream().map(Instance::id).collect(Collectors.toSet());
        memory = memory.withoutOldRemovals(now, listed);
        for (Map.Entry<String, InstanceRecord> gone : memory.instances().entrySet()) {
            if (listed.contains(gone.getKey()) || !gone.getValue().running()) {
                continue;
            }
            if (overprovisionedExtra(gone.getValue())) {
                draft.note(EventKind.OVERPROVISIONED, "instance " + gone.getKey() + " appeared beyond what "
                        + "was asked when the pool grew at " + memory.grownAt() + " and is gone again: the scale set "
                        + "overprovisions (Azure makes extra instances and deletes them), which is no eviction; "
                        + "hpcscale-scaler check says whether it does and how to turn it off");
            } else {
                foundStoppedElsewhere(gone.getKey(), gone.getKey(), "is gone from the cloud's listing");
            }
        }
        memory = memory.onlyInstances(listed);
        SortedMap<String, InstanceRecord> records = new TreeMap<>(memory.instances());
        ScalerStateDocument.PendingCreate creating = memory.pendingCreate();
        int attributed = 0;
        for (Instance instance : PoolView.sortedByNode(s.instances().instances())) {
            InstanceRecord record = records.get(instance.id());
            if (instance.state() == PowerState.UNKNOWN) {
                // The cloud does not say: whatever was pending or booting stays so until it does.
                continue;
            }
            if (instance.state() == PowerState.FAILED) {
                if (record == null && creating != null && attributed < creating.count()) {
                    // One of the instances the growth asked for, failed: a failed boot of hpcscale's.
                    attributed++;
                    record = InstanceRecord.seenActive(creating.at(), true).started(creating.at(),
                            creating.reason());
                }
                record = failedVm(instance, record);
                if (record != null) {
                    records.put(instance.id(), record);
                }
                continue;
            }
            boolean active = instance.state().active();
            if (record != null && record.pending() != null) {
                record = settle(instance, record, active);
            } else if (record != null && record.running() && instance.state() == PowerState.STOPPED) {
                record = record.booting() ? stoppedWhileBooting(instance, record)
                        : record.stopped(now, foundStoppedElsewhere(instance.id(), instance.nodeName(),
                                "is listed stopped"), "stopped, not by hpcscale");
            }
            if (record == null && active) {
                boolean startingNow = instance.state() == PowerState.STARTING;
                if (creating != null && attributed < creating.count()) {
                    attributed++;
                    record = InstanceRecord.seenActive(creating.at(), true).started(creating.at(),
                            creating.reason());
                } else {
                    record = InstanceRecord.seenActive(now, startingNow);
                }
            } else if (record != null && record.booting() && !active) {
                record = record.bootEnded();
            } else if (record != null && !record.booting() && instance.state() == PowerState.STARTING) {
                record = record.bootSeen(now);
            }
            if (record != null) {
                records.put(instance.id(), record);
            }
        }
        memory = memory.withInstances(records);
        if (creating != null && (attributed >= creating.count()
                || !now.isBefore(creating.at().plus(pool.bootTimeout())))) {
            memory = memory.withPendingCreate(null);
        } else if (creating != null && attributed > 0) {
            memory = memory.withPendingCreate(new ScalerStateDocument.PendingCreate(creating.count() - attributed,
                    creating.at(), creating.reason()));
        }
    }

    /**
     * Whether an instance gone from the listing is one a scale set that overprovisions made beyond what was asked
     * and then deleted: found active at or after hpcscale's last growth without being one of the instances asked
     * for (those are attributed to the growth), and gone within {@link #OVERPROVISION_WINDOW} of it (Microsoft
     * Learn, scale set design overview: Azure "spins up more VMs than you asked for, then deletes the extra VMs").
     */
    private boolean overprovisionedExtra(InstanceRecord record) {
        Instant grown = memory.grownAt();
        return grown != null && !record.startedByHpcscale() && record.startedAt() != null
                && !record.startedAt().isBefore(grown) && now.isBefore(grown.plus(OVERPROVISION_WINDOW));
    }

    /**
     * An instance hpcscale last knew running that stopped or vanished without hpcscale stopping it: on a Spot
     * pool the cloud took it back (an eviction, counted); elsewhere someone else stopped or deleted it. Either
     * way it is an event, never a failed boot, and a stopped one is started again while jobs need it.
     */
    private StopKind foundStoppedElsewhere(String instanceId, String node, String how) {
        NoticeDocument notice = node == null ? null : s.noticeOf(node);
        if (notice != null && notice.kind() == NoticeDocument.Kind.PREEMPT) {
            memory = memory.withEviction();
            draft.found(EventKind.EVICTED, instanceId, "instance " + instanceId + " (node " + node + ") " + how
                    + ": evicted, as Azure announced to the node (Preempt " + notice.eventId() + ", not before "
                    + notice.notBefore() + "), whose agent was to requeue its jobs before it went (its log says "
                    + "whether the scheduler did); it is started again while jobs need it");
            return StopKind.EVICTED;
        }
        if (s.spot()) {
            memory = memory.withEviction();
            draft.found(EventKind.EVICTED, instanceId, "instance " + instanceId + " (node " + node
                    + ") " + how + ": the cloud took the Spot instance back; jobs it ran are the scheduler's "
                    + "to requeue, and it is started again while jobs need it");
            return StopKind.EVICTED;
        }
        draft.found(EventKind.STOPPED_ELSEWHERE, instanceId, "instance " + instanceId + " (node "
                + node + ") " + how + ", but hpcscale did not stop it (an administrator, the portal, or a "
                + "maintenance event?); it is started again while jobs need it");
        return StopKind.STOPPED_ELSEWHERE;
    }

    /**
     * An instance whose provisioning failed. One hpcscale started (or was starting) is a failed boot, counted once;
     * any other is said once in a note. Either way it is not started again: what failed needs an administrator.
     */
    private InstanceRecord failedVm(Instance instance, InstanceRecord record) {
        String why = "instance " + instance.id() + " failed to provision" + (instance.failure() == null ? ""
                : " (" + instance.failure() + ")");
        boolean ours = record != null && (record.booting()
                || (record.pending() != null && record.pending().start()));
        if (!ours) {
            draft.note(EventKind.FAILED_VM, why + ": hpcscale does not start it again; delete it, or "
                    + "redeploy it in the portal");
            return record;
        }
        draft.found(EventKind.FAILED_VM, instance.id(), why + ": counted as a failed boot");
        countFailedBoot(why);
        return record.stopped(now, StopKind.BOOT_FAILURE, why);
    }

    private void countFailedBoot(String why) {
        boolean wasProtected = memory.bootHealth().protectedNow();
        memory = PoolBackoff.afterFailedBoot(memory, pool, now, why);
        if (memory.inBackoff(now)) {
            draft.note(EventKind.BACKOFF, memory.backoffReason() + ": no instance is started until "
                    + memory.backoffUntil());
        }
        if (!wasProtected && memory.bootHealth().protectedNow()) {
            draft.note(EventKind.PROTECTED, ProtectedPool.describe(memory.bootHealth(), pool));
        }
    }

    /** A start that did not take, or a boot cut short: not a failed boot, and no eviction to count. */
    private InstanceRecord stoppedWhileBooting(Instance instance, InstanceRecord record) {
        if (instance.failure() != null && instance.failure().capacity()) {
            String why = "the start of instance " + instance.id() + " asked at " + record.startedAt() + " failed: "
                    + instance.failure();
            draft.found(EventKind.STOPPED_ELSEWHERE, instance.id(), why + "; the pool backs off");
            memory = PoolBackoff.afterRefusal(memory, pool, now, "capacity error: " + why);
            return record.stopped(now, StopKind.STOPPED_ELSEWHERE, why);
        }
        String why = "instance " + instance.id() + " was started at " + record.startedAt() + " but is listed "
                + "stopped before its node reported: the start did not take, or it was stopped while it booted";
        draft.found(EventKind.STOPPED_ELSEWHERE, instance.id(), why);
        return record.stopped(now, StopKind.STOPPED_ELSEWHERE, why);
    }

    private InstanceRecord settle(Instance instance, InstanceRecord record, boolean active) {
        InstanceRecord.Pending pending = record.pending();
        String asked = (pending.start() ? "the start" : "the stop") + " asked at " + pending.at()
                + " by a scaler that did not record its outcome";
        String state = instance.state().name().toLowerCase(Locale.ROOT);
        if (pending.start()) {
            draft.found(EventKind.SETTLED, instance.id(), active
                    ? asked + ": the cloud lists it " + state + ", its boot is timed from then"
                    : asked + " did not happen: the cloud lists it " + state);
            return active ? record.started(pending.at(), pending.reason()) : record.withPending(null);
        }
        if (active) {
            draft.found(EventKind.SETTLED, instance.id(), asked + " did not happen: the cloud lists "
                    + "it " + state);
            return record.withPending(null);
        }
        draft.found(EventKind.SETTLED, instance.id(), asked + ": the cloud lists it " + state
                + (pending.stopKind().failedBoot() ? "; counted as a failed boot" : ""));
        if (pending.stopKind().failedBoot()) {
            countFailedBoot("instance " + instance.id() + ": " + pending.reason());
        }
        return record.stopped(pending.at(), pending.stopKind(), pending.reason());
    }

    /** Evictions found this cycle count towards backoff ({@link PoolBackoff}); entering it is an event. */
    private void backOffOnRepeatedEvictions() {
        if (!draft.foundAny(EventKind.EVICTED)) {
            return;
        }
        boolean before = memory.inBackoff(now);
        memory = PoolBackoff.afterEvictions(memory, pool, now);
        if (!before && memory.inBackoff(now)) {
            draft.note(EventKind.EVICTION_BACKOFF, memory.backoffReason() + ": the region keeps taking "
                    + "instances back, so none is started until " + memory.backoffUntil() + " (pool." + pool.name()
                    + ".capacityBackoff)");
        }
    }
}
