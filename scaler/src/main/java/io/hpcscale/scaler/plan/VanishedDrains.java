package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.DrainDocument;

/**
 * Withdraws the drain requests of nodes that no instance has any more: they would hold a node that comes back
 * under the same name out of service. Safe without a fresh agent read, so it runs where nothing else about drains
 * may ({@link DrainCompletion} does it too when the read is fresh).
 */
final class VanishedDrains implements Decision {

    @Override
    public void decide(PoolView view, PlanDraft draft) {
        for (DrainDocument drain : view.sortedDrains()) {
            if (view.state().instances().byNode(drain.name()).isEmpty()) {
                draft.add(new Plan.CancelDrain(drain.name(), "no instance has this node any more"));
            }
        }
    }
}
