package io.hpcscale.cloud.azure;

import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.pool.StopAction;

/** What a call asks of a scale set's instances, with what a listing shows once it took effect. */
enum PowerCall {
    START("start"),
    DEALLOCATE("deallocate"),
    HIBERNATE("hibernate"),
    POWER_OFF("power off"),
    DELETE("delete");

    private final String verb;

    PowerCall(String verb) {
        this.verb = verb;
    }

    static PowerCall of(StopAction action) {
        return switch (action) {
            case DEALLOCATE -> DEALLOCATE;
            case HIBERNATE -> HIBERNATE;
            case POWER_OFF -> POWER_OFF;
            case DELETE -> DELETE;
        };
    }

    String verb() {
        return verb;
    }

    /**
     * Whether a VM listed in this state (null: no longer listed) shows the call took effect. An unknown or failed
     * state shows nothing, and a VM still listed may be being deallocated rather than deleted.
     */
    boolean tookEffect(PowerState state) {
        return switch (this) {
            case START -> state != null && state.active();
            case DEALLOCATE, HIBERNATE, POWER_OFF -> state == null || state == PowerState.STOPPING
                    || state == PowerState.STOPPED;
            case DELETE -> state == null;
        };
    }
}
