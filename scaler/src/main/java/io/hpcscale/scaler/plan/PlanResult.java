package io.hpcscale.scaler.plan;

/** A plan and the pool history as it stands once the plan is made (before its actions succeed or fail). */
public record PlanResult(Plan plan, PoolHistory history) {
}
