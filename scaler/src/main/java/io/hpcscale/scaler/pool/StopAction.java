package io.hpcscale.scaler.pool;

/** How an instance is stopped. */
public enum StopAction {
    /** Released: no compute charge, keeps its disk, slower to start again. */
    DEALLOCATE("deallocate"),
    /** Powered off but allocated: faster to start, still charged. */
    POWER_OFF("powerOff"),
    /** Removed from the scale set. */
    DELETE("delete");

    private final String setting;

    StopAction(String setting) {
        this.setting = setting;
    }

    public String setting() {
        return setting;
    }

    public static StopAction fromSetting(String value) {
        for (StopAction action : values()) {
            if (action.setting.equals(value)) {
                return action;
            }
        }
        throw new IllegalArgumentException("no stop action " + value);
    }
}
