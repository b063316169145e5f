package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.NodeNames;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.BootHealth;
import io.hpcscale.scaler.documents.IdleLearning;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.removal.RemovalMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Sorts a pool's listed instances, once its memory is settled ({@link PoolObservation}), into the {@link PoolView}
 * every decision reads. Instances that hpcscale started are booting until their node reports to the scheduler,
 * and those it found starting until then or their boot timeout; every other running instance is up. A running
 * instance whose node no agent reports is left alone: its node may well run jobs under a mapping hpcscale does not
 * know. Boots that ended are recorded in the memory the view carries. An instance whose node asked for its removal
 * (a record of the memory, or a message of this cycle) is leaving, and none of running, booting or stopped.
 */
final class InstanceSorting {
    private InstanceSorting() {
    }

    static PoolView sort(PoolState s, ScalerStateDocument settled, boolean fresh, PlanDraft draft) {
        ScalerStateDocument memory = settled;
        boolean agentless = PoolView.agentless(s);
        Set<String> leavingIds = leavingIds(s, memory);
        List<Instance> running = new ArrayList<>();
        List<Instance> booting = new ArrayList<>();
        List<Instance> stopped = new ArrayList<>();
        List<Instance> unknown = new ArrayList<>();
        Set<String> leaving = new HashSet<>();
        SortedMap<String, InstanceRecord> booted = new TreeMap<>();
        List<Duration> bootTimes = new ArrayList<>();
        SortedMap<String, InstanceRecord> othersEnded = new TreeMap<>();
        PoolView unsorted = PoolView.unsorted(s, fresh);
        for (Instance instance : PoolView.sortedByNode(s.instances().instances())) {
            VmDocument vm = unsorted.vmOf(instance);
            InstanceRecord record = memory.instance(instance.id()).orElse(null);
            // In a pool that checks its nodes, a boot is done once the node's check of it passed, not before.
            boolean reported = ((vm != null && !vm.down()) || s.reportedInAnotherPool(instance.nodeName()))
                    && checkPassed(s, instance);
            boolean bootingRecord = record != null && record.booting();
            boolean isLeaving = leavingIds.contains(instance.id().toLowerCase(Locale.ROOT));
            if (isLeaving) {
                leaving.add(NodeNames.key(instance.nodeName()));
            }
            // Starting by the listing, yet its node took a job since hpcscale started it: it is up. The listing
            // may be older than that (listings are spaced out to spare Azure's budget). A node merely reported
            // is no proof: the scheduler shows a node it has not yet seen go down.
            PowerState state = instance.state() == PowerState.STARTING && fresh && reported && !agentless
                    && busySince(vm, record) ? PowerState.RUNNING : instance.state();
            switch (state) {
                case STARTING -> addUnlessLeaving(booting, instance, isLeaving);
                case RUNNING -> {
                    boolean others = bootingRecord && vm == null && !s.reportedInAnotherPool(instance.nodeName())
                            && othersBootOver(s, memory, record);
                    if (bootingRecord && !(fresh && reported) && !agentless && !others) {
                        addUnlessLeaving(booting, instance, isLeaving);
                        continue;
                    }
                    if (others) {
                        othersEnded.put(instance.id(), record.bootEnded());
                    } else if (bootingRecord) {
                        booted.put(instance.id(), record.bootEnded());
                        if (record.startedByHpcscale() && record.startedAt() != null) {
                            bootTimes.add(Duration.between(record.startedAt(), s.now()));
                        }
                    }
                    addUnlessLeaving(running, instance, isLeaving);
                    if (fresh && vm == null && !s.reportedInAnotherPool(instance.nodeName())) {
                        draft.note(EventKind.UNREPORTED_NODE, "instance " + instance.id() + " runs but no agent "
                                + "reports its node " + instance.nodeName() + " in this pool (check the pool's "
                                + "queue, partition or nodePattern); hpcscale stops it only as an orphan, where the "
                                + "pool's stopOrphans is true");
                    }
                }
                case STOPPED -> addUnlessLeaving(stopped, instance, isLeaving);
                case UNKNOWN -> unknown.add(instance);
                case STOPPING, FAILED -> {
                    // On its way down, or broken: neither capacity nor something to act on.
                }
            }
        }
        if (!othersEnded.isEmpty()) {
            SortedMap<String, InstanceRecord> records = new TreeMap<>(memory.instances());
            records.putAll(othersEnded);
            memory = memory.withInstances(records);
        }
        if (!booted.isEmpty()) {
            SortedMap<String, InstanceRecord> records = new TreeMap<>(memory.instances());
            records.putAll(booted);
            memory = memory.withInstances(records).withBootFailures(0);
            // Only a boot hpcscale asked for clears the boots' health: an instance found booting (a maintenance
            // reboot, one started by hand) says nothing of whether the pool's own starts work.
            boolean ours = booted.values().stream().anyMatch(InstanceRecord::startedByHpcscale);
            if (ours && memory.bootHealth().protectedNow()) {
                draft.note(EventKind.RESUMED, ProtectedPool.lifted(memory.bootHealth(), s.pool()));
            }
            if (ours && !memory.bootHealth().equals(BootHealth.NONE)) {
                memory = memory.withBootHealth(BootHealth.NONE);
            }
            if (s.pool().adaptiveIdle() != null) {
                IdleLearning learning = memory.idleLearning();
                for (Duration took : bootTimes) {
                    learning = learning.withBoot(took);
                }
                memory = memory.withIdleLearning(learning);
            }
        }
        return unsorted.sorted(memory, running, booting, stopped, unknown, leaving);
    }

    /**
     * An instance found starting that hpcscale did not start, whose node no agent knows within the boot timeout:
     * someone else's (started by hand, from an image without the scheduler's daemon), not a failed boot of the pool.
     * (A node the agent reports, down or unchecked, is the pool's: its boot timeout stops it as a failed boot.)
     * Its boot ends, uncounted, and from then on it runs unreported: {@link Orphans} decides. Not one first seen
     * within a boot timeout of hpcscale's last growth: that may be one of its own that the listing showed late.
     */
    private static boolean othersBootOver(PoolState s, ScalerStateDocument memory, InstanceRecord record) {
        Instant since = record.bootingSince();
        if (record.startedByHpcscale() || since == null || since.plus(s.pool().bootTimeout()).isAfter(s.now())) {
            return false;
        }
        Instant grown = memory.grownAt();
        return grown == null || since.isAfter(grown.plus(s.pool().bootTimeout()));
    }

    /** Whether a node of a pool that checks its nodes passed its check; true elsewhere. */
    private static boolean checkPassed(PoolState s, Instance instance) {
        if (!s.pool().healthChecked()) {
            return true;
        }
        HealthDocument check = s.healthOf(instance.nodeName());
        return check != null && check.state() == HealthDocument.State.PASSED;
    }

    private static void addUnlessLeaving(List<Instance> list, Instance instance, boolean leaving) {
        if (!leaving) {
            list.add(instance);
        }
    }

    /**
     * The ids, in lower case, of the instances whose removal the pool has taken on or takes on this cycle: those
     * its state records and those this cycle's messages name ({@link NodeRemoval} answers the messages).
     */
    private static Set<String> leavingIds(PoolState s, ScalerStateDocument memory) {
        Set<String> ids = new HashSet<>();
        memory.removals().keySet().forEach(id -> ids.add(id.toLowerCase(Locale.ROOT)));
        for (RemovalMessage.Request message : s.removals()) {
            ids.add(message.request().vmName().toLowerCase(Locale.ROOT));
        }
        return ids;
    }

    /** Whether the node ran a job after hpcscale started its instance. */
    private static boolean busySince(VmDocument vm, InstanceRecord record) {
        return vm != null && record != null && record.startedAt() != null
                && (!vm.jobIds().isEmpty() || (vm.lastBusyAt() != null && vm.lastBusyAt().isAfter(record.startedAt())));
    }

}
