package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.RemovalRecord;
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
 * runs nothing: at once where no agent reports its node, else after the drain handshake, like any stop. Which
 * instances are leaving is the view's ({@link InstanceSorting}); this decision answers the messages and removes.
 */
final class NodeRemoval implements Decision {

    @Override
    public void decide(PoolView view, PlanDraft draft) {
        for (Map.Entry<String, RemovalRecord> removal : view.memory().removals().entrySet()) {
            view.listed(removal.getKey()).ifPresent(instance -> remove(view, draft, instance, removal.getValue()));
        }
        Set<String> seen = new HashSet<>();
        for (RemovalMessage.Request message : view.state().removals()) {
            RemovalRequest request = message.request();
            String vmName = request.vmName();
            if (!seen.add(vmName.toLowerCase(Locale.ROOT))) {
                continue;
            }
            Optional<Map.Entry<String, RemovalRecord>> taken = view.memory().removals().entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(vmName)).findFirst();
            if (taken.isPresent()) {
                draft.add(new Plan.RemovalAnswer(message, EventKind.REMOVAL_DUPLICATE, "the removal of "
                        + taken.get().getKey() + " was taken on at " + taken.get().getValue().at() + " from an "
                        + "earlier delivery of this request: nothing is done twice", false));
                continue;
            }
            Optional<Instance> instance = view.listed(vmName);
            if (instance.isEmpty()) {
                draft.add(new Plan.RemovalAnswer(message, EventKind.REMOVAL_SET_ASIDE, "no instance "
                        + vmName + " in the pool's scale set (asked by " + request.requestedBy() + " at "
                        + request.requestedAt() + "): already gone, or the message names the wrong VM", true));
                continue;
            }
            draft.add(new Plan.Acceptance(message, instance.get().id()));
        }
    }

    private static void remove(PoolView view, PlanDraft draft, Instance instance, RemovalRecord removal) {
        if (instance.state() == PowerState.STOPPING) {
            return;
        }
        String asked = "asked by " + removal.requestedBy() + " at " + removal.at();
        boolean fresh = view.fresh();
        VmDocument vm = view.vmOf(instance);
        if (view.agentless() || (fresh && vm == null && !view.state().reportedInAnotherPool(instance.nodeName()))) {
            draft.add(removal(view, instance, asked));
            return;
        }
        if (instance.state() == PowerState.STOPPED && vm != null) {
            if (vm.down() && vm.idle()) {
                draft.add(removal(view, instance, asked));
            } else {
                waits(draft, instance, "it is stopped but the scheduler does not show its node down and empty yet");
            }
            return;
        }
        if (!fresh || vm == null) {
            waits(draft, instance, !fresh
                    ? "the pool's agent has not reported recently, so what its node runs is not known"
                    : "its node is reported in another pool, whose drains this pool does not ask for");
            return;
        }
        DrainDocument drain = view.drainOf(instance);
        if (drain == null) {
            draft.add(new Plan.DrainRequest(instance, view.nodeOf(instance), "asked to be removed: " + asked));
        } else if (DrainHandshake.complete(drain, vm)) {
            draft.add(removal(view, instance, asked + ", drained"));
        } else {
            waits(draft, instance, "its node is draining" + (vm.jobIds().isEmpty() ? ""
                    : " and runs " + String.join(", ", vm.jobIds())));
        }
    }

    private static Plan.Removal removal(PoolView view, Instance instance, String reason) {
        return new Plan.Removal(instance, view.nodeOf(instance), view.nodePoolOf(instance), reason);
    }

    private static void waits(PlanDraft draft, Instance instance, String why) {
        draft.note(EventKind.REMOVAL_WAITS, "the removal of instance " + instance.id() + " waits: " + why);
    }
}
