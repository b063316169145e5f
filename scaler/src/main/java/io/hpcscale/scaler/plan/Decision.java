package io.hpcscale.scaler.plan;

/**
 * One way of deciding what a pool needs (scale up, idle drain, boot timeout, ...): it reads the pool's view and
 * writes actions and notes to the draft. The planner composes the decisions in order; one that needs what an
 * earlier one planned asks the draft. No decision calls anything outside the planner: the plan is carried out, and
 * every stop re-checked by {@link StopGuard}, by the scaler afterwards.
 */
interface Decision {
    void decide(PoolView view, PlanDraft draft);
}
