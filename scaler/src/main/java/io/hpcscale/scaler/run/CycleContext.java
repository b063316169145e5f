package io.hpcscale.scaler.run;

import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.scaler.plan.Planner;

/**
 * What every pool's cycle shares: the store, the planner, the event recorder, the gate, the throttles, the queue
 * of removal requests, the usage recorder and the administrator's hooks.
 */
record CycleContext(DocumentStore store, ScalerStateStore states, Planner planner, ScalerEvents events,
        ActionGate gate, CloudThrottles throttles, boolean dryRun, RemovalInbox removals, UsageRecorder usage,
        ActionHooks hooks) {
}
