package io.hpcscale.cloud.azure.fake;

/** Uniform: numbered instances under the scale set. Flexible: ordinary VMs that name their scale set. */
public enum OrchestrationMode {
    UNIFORM("Uniform"),
    FLEXIBLE("Flexible");

    private final String armValue;

    OrchestrationMode(String armValue) {
        this.armValue = armValue;
    }

    public String armValue() {
        return armValue;
    }

    static OrchestrationMode parse(String value) {
        for (OrchestrationMode mode : values()) {
            if (mode.armValue.equalsIgnoreCase(value)) {
                return mode;
            }
        }
        throw ArmException.badRequest("InvalidParameter",
            "The value '" + value + "' of parameter 'orchestrationMode' is not allowed.", "orchestrationMode");
    }
}
