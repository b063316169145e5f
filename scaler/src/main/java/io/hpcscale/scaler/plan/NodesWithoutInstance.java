package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.VmDocument;
import java.util.List;

/**
 * Nodes an agent reports in this pool that no instance of the pool is, by name: a naming the provider does not
 * match (Azure's nodeName setting) or a queue mapping that claims foreign nodes. hpcscale never acts on them; this
 * decision only says so. Only with a fresh agent read.
 */
final class NodesWithoutInstance implements Decision {
    private static final int NAMED = 10;

    @Override
    public void decide(PoolView view, PlanDraft draft) {
        List<String> strangers = view.state().vms().stream().map(VmDocument::name)
                .filter(name -> view.state().instances().byNode(name).isEmpty()).sorted().toList();
        if (strangers.isEmpty()) {
            return;
        }
        draft.note(EventKind.NODE_WITHOUT_INSTANCE, Words.count(strangers.size(), "node") + " reported in this pool "
                + (strangers.size() == 1 ? "matches" : "match") + " no instance of its scale set: "
                + String.join(", ", strangers.subList(0, Math.min(NAMED, strangers.size())))
                + (strangers.size() > NAMED ? ", ..." : "") + " (check the pool's node naming, e.g. azure.nodeName, "
                + "and the agent's queue or partition mapping); hpcscale leaves them alone");
    }
}
