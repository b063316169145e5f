package io.hpcscale.cloud.azure.fake;

/** The power states ARM reports as {@code PowerState/<x>} in an instance view. */
public enum PowerState {
    STARTING("starting", "VM starting"),
    RUNNING("running", "VM running"),
    STOPPING("stopping", "VM stopping"),
    STOPPED("stopped", "VM stopped"),
    DEALLOCATING("deallocating", "VM deallocating"),
    DEALLOCATED("deallocated", "VM deallocated");

    private final String value;
    private final String displayStatus;

    PowerState(String value, String displayStatus) {
        this.value = value;
        this.displayStatus = displayStatus;
    }

    public String code() {
        return "PowerState/" + value;
    }

    public String displayStatus() {
        return displayStatus;
    }

    public boolean isTransitional() {
        return this == STARTING || this == STOPPING || this == DEALLOCATING;
    }
}
