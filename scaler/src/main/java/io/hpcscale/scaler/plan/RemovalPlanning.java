package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.NodeNames;
import io.hpcscale.common.model.RemovalRecord;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.plan.Plan.Note;
import io.hpcscale.scaler.removal.RemovalMessage;
import io.hpcscale.scaler.removal.RemovalRequest;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Nodes that asked for their instance to be removed.
 *
 * <p>A message is taken on once: the pool's state gets a record of the removal, and from then on the record, not
 * the message, drives it; a message finding a record is a second delivery and is only deleted, one for an instance
 * the pool does not have is set aside. An instance whose removal was taken on is leaving: it counts for nothing
 * (no capacity, no part of a fixed count, never started or drained for anything else). It is deleted once its node
 * runs nothing: at once where no agent reports its node, else after the drain handshake, like any stop.
 */
final class RemovalPlanning {
    private final Planning p;

    RemovalPlanning(Planning planning) {
        this.p = planning;
    }

    void plan(boolean fresh) {
        for (Map.Entry<String, RemovalRecord> removal : p.memory.removals().entrySet()) {
            listed(removal.getKey()).ifPresent(instance -> {
                p.leave(instance);
                remove(instance, removal.getValue(), fresh);
            });
        }
        Set<String> seen = new HashSet<>();
        for (RemovalMessage.Request message : p.s.removals()) {
            RemovalRequest request = message.request();
            String vmName = request.vmName();
            if (!seen.add(vmName.toLowerCase(Locale.ROOT))) {
                continue;
            }
            Optional<Map.Entry<String, RemovalRecord>> taken = p.memory.removals().entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(vmName)).findFirst();
            if (taken.isPresent()) {
                p.removalAnswers.add(new Plan.RemovalAnswer(message, EventKind.REMOVAL_DUPLICATE, "the removal of "
                        + taken.get().getKey() + " was taken on at " + taken.get().getValue().at() + " from an "
                        + "earlier delivery of this request: nothing is done twice", false));
                continue;
            }
            Optional<Instance> instance = listed(vmName);
            if (instance.isEmpty()) {
                p.removalAnswers.add(new Plan.RemovalAnswer(message, EventKind.REMOVAL_SET_ASIDE, "no instance "
                        + vmName + " in the pool's scale set (asked by " + request.requestedBy() + " at "
                        + request.requestedAt() + "): already gone, or the message names the wrong VM", true));
                continue;
            }
            p.leave(instance.get());
            p.acceptances.add(new Plan.Acceptance(message, instance.get().id()));
        }
    }

    private Optional<Instance> listed(String instanceId) {
        return p.s.instances().instances().stream().filter(i -> i.id().equalsIgnoreCase(instanceId)).findFirst();
    }

    private void remove(Instance instance, RemovalRecord removal, boolean fresh) {
        if (instance.state() == PowerState.STOPPING) {
            return;
        }
        String asked = "asked by " + removal.requestedBy() + " at " + removal.at();
        VmDocument vm = p.vmOf(instance);
        if (p.agentless() || (fresh && vm == null && !p.s.reportedInAnotherPool(instance.nodeName()))) {
            p.removals.add(new Plan.Removal(instance, p.nodeOf(instance), p.nodePoolOf(instance), asked));
            return;
        }
        if (instance.state() == PowerState.STOPPED && vm != null) {
            if (vm.down() && vm.idle()) {
                p.removals.add(new Plan.Removal(instance, p.nodeOf(instance), p.nodePoolOf(instance), asked));
            } else {
                waits(instance, "it is stopped but the scheduler does not show its node down and empty yet");
            }
            return;
        }
        if (!fresh || vm == null) {
            waits(instance, !fresh ? "the pool's agent has not reported recently, so what its node runs is not known"
                    : "its node is reported in another pool, whose drains this pool does not ask for");
            return;
        }
        DrainDocument drain = p.drainsByNode.get(NodeNames.key(instance.nodeName()));
        if (drain == null) {
            p.drains.add(new Plan.DrainRequest(instance, p.nodeOf(instance), "asked to be removed: " + asked));
        } else if (DrainHandshake.complete(drain, vm)) {
            p.removals.add(new Plan.Removal(instance, p.nodeOf(instance), p.nodePoolOf(instance), asked
                    + ", drained"));
        } else {
            waits(instance, "its node is draining" + (vm.jobIds().isEmpty() ? ""
                    : " and runs " + String.join(", ", vm.jobIds())));
        }
    }

    private void waits(Instance instance, String why) {
        p.notes.add(new Note(EventKind.REMOVAL_WAITS, "the removal of instance " + instance.id() + " waits: " + why));
    }
}
