package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.NodeNames;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.documents.StopKind;
import java.util.HashSet;
import java.util.Set;

/**
 * The drain handshake's end: drains whose node queued jobs need again are withdrawn, instances whose drain is
 * complete are stopped (when {@link StopGuard} allows it), and a drained node that still runs jobs is waited for.
 * Drains withdrawn already, whose instance starts or is stopped this cycle, whose instance is leaving, or whose
 * instance still boots (a failed boot's, {@link BootTimeout} owns it) are left alone. Only with a fresh agent read;
 * otherwise {@link VanishedDrains}.
 */
final class DrainCompletion implements Decision {
    private final Demand demand;

    DrainCompletion(Demand demand) {
        this.demand = demand;
    }

    @Override
    public void decide(PoolView view, PlanDraft draft) {
        Set<String> leftAlone = new HashSet<>(draft.cancelledDrains());
        draft.planned(Plan.Start.class).forEach(st -> leftAlone.add(NodeNames.key(st.instance().nodeName())));
        draft.stopped().forEach(instance -> leftAlone.add(NodeNames.key(instance.nodeName())));
        leftAlone.addAll(view.leaving());
        leftAlone.addAll(PoolView.nodeKeys(view.booting()));
        for (DrainDocument drain : view.sortedDrains()) {
            Instance instance = view.state().instances().byNode(drain.name()).orElse(null);
            if (instance == null) {
                draft.add(new Plan.CancelDrain(drain.name(), "no instance has this node any more"));
                continue;
            }
            if (!instance.state().active() || leftAlone.contains(NodeNames.key(drain.name()))) {
                continue;
            }
            VmDocument vm = view.vmOf(drain.name());
            if (demand.drainsToCancel().contains(drain.name())) {
                draft.add(new Plan.CancelDrain(drain.name(), "queued jobs need it again"));
            } else if (StopGuard.refusal(StopKind.DRAINED, vm, drain).isEmpty()) {
                draft.add(new Plan.Stop(instance, drain.name(), vm.poolName(), "drained: offline and running no "
                        + "job since the agent's read at " + vm.seenAt() + ", after the drain request of "
                        + drain.requestedAt(), StopKind.DRAINED));
            } else if (DrainHandshake.acknowledged(drain, vm) && !vm.jobIds().isEmpty()) {
                draft.note(EventKind.WAITING_FOR_JOBS, "node " + drain.name() + " is drained but still runs "
                        + String.join(", ", vm.jobIds()) + "; it is stopped once that ends");
            }
        }
    }
}
