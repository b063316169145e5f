package io.hpcscale.scaler.pool;

/** How an instance is stopped. */
public enum StopAction {
    /** Released: no compute charge, keeps its disk, slower to start again. */
    DEALLOCATE("deallocate"),
    /**
     * Memory saved to the OS disk, then released as {@link #DEALLOCATE}: no compute charge, and a start resumes the
     * node where it stopped, sooner than a boot. Azure hibernates only Flexible scale sets' VMs of some sizes, with
     * hibernation enabled; a VM it will not hibernate is deallocated instead.
     */
    HIBERNATE("hibernate"),
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
