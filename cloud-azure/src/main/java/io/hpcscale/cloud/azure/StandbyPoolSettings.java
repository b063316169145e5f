package io.hpcscale.cloud.azure;

import io.hpcscale.common.config.PoolSettings;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The standby pool hpcscale keeps beside a pool's Flexible scale set: a {@code Microsoft.StandbyPool/
 * standbyVirtualMachinePools} resource of this name in the scale set's resource group, attached to it, holding
 * {@code size} VMs made from the scale set's model and kept in {@code state}. When the scaler raises the scale set's
 * capacity, Azure moves ready VMs of the pool into the scale set and starts (or resumes) them rather than creating
 * new ones, and refills the pool.
 *
 * @param name  the standby pool's resource name
 * @param state the power state its VMs are kept in, as the API spells it
 * @param size  its {@code maxReadyCapacity} and {@code minReadyCapacity}: how many VMs it holds ready
 */
public record StandbyPoolSettings(String name, VmState state, int size) {
    /** The API's name rule (standbyVMPool.tsp: {@code ^[a-zA-Z0-9-]{3,24}$}). */
    private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9-]{3,24}");
    /** "The maximum number of virtual machines between a scale set and a standby pool is 1,000" (Learn's FAQ). */
    static final int MAX_WITH_SCALE_SET = 1000;

    /** The states a standby pool's VMs may be kept in (the API's {@code VirtualMachineState}). */
    public enum VmState {
        DEALLOCATED("Deallocated"), HIBERNATED("Hibernated"), RUNNING("Running");

        private final String api;

        VmState(String api) {
            this.api = api;
        }

        public String api() {
            return api;
        }

        /** The state the API names so, without case; empty for one it does not know. */
        static Optional<VmState> ofApi(String value) {
            for (VmState state : values()) {
                if (state.api.equalsIgnoreCase(value)) {
                    return Optional.of(state);
                }
            }
            return Optional.empty();
        }

        /** As the setting and messages spell it: {@code deallocated}. */
        public String setting() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The pool's standby pool, empty when it names none; what is wrong with its settings goes to {@code problems}. */
    static Optional<StandbyPoolSettings> from(PoolSettings pool, List<String> problems) {
        Optional<String> name = pool.optionalString("azure.standbyPool");
        if (name.isEmpty()) {
            for (String key : List.of("azure.standbyPoolState", "azure.standbyPoolSize")) {
                if (pool.isSet(key)) {
                    problems.add(pool.key(key) + " is set without " + pool.key("azure.standbyPool") + ": name the "
                            + "standby pool, or remove it");
                }
            }
            return Optional.empty();
        }
        int before = problems.size();
        if (!NAME.matcher(name.get()).matches()) {
            problems.add(pool.key("azure.standbyPool") + " = " + name.get() + ": Azure names a standby pool with 3 "
                    + "to 24 letters, digits and hyphens");
        }
        // The configuration refuses any state but the three and any size below 1 before this is read.
        VmState state = VmState.valueOf(pool.string("azure.standbyPoolState").toUpperCase(Locale.ROOT));
        long size = pool.isSet("azure.standbyPoolSize") ? pool.integer("azure.standbyPoolSize") : 0;
        if (size == 0) {
            problems.add(pool.key("azure.standbyPoolSize") + " is required with " + pool.key("azure.standbyPool")
                    + ": how many VMs the standby pool holds ready");
        } else if (size + pool.intValue("max") > MAX_WITH_SCALE_SET) {
            problems.add(pool.key("azure.standbyPoolSize") + " = " + size + " with " + pool.key("max") + " = "
                    + pool.intValue("max") + ": Azure allows at most " + MAX_WITH_SCALE_SET + " VMs between a scale "
                    + "set and its standby pool (Microsoft Learn, standby pools FAQ)");
        }
        if (!pool.bool("azure.allowCreate")) {
            problems.add(pool.key("azure.standbyPool") + " needs " + pool.key("azure.allowCreate") + " = true: "
                    + "Azure hands out the standby pool's VMs only when the scale set's capacity is raised");
        }
        if (pool.intValue("azure.vmsPerScaleSet") > 0) {
            problems.add(pool.key("azure.standbyPool") + " is not for a pool spread over several scale sets ("
                    + pool.key("azure.vmsPerScaleSet") + " > 0): a standby pool serves one scale set");
        }
        return problems.size() > before ? Optional.empty()
                : Optional.of(new StandbyPoolSettings(name.get(), state, (int) size));
    }
}
