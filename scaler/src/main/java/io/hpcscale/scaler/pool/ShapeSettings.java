package io.hpcscale.scaler.pool;

import java.util.Optional;

/**
 * A pool's VM shape as its settings give it: each part set, or null to be read from the provider (the azure provider
 * reads the scale set's VM size). Set values always win over what the provider reads.
 */
public record ShapeSettings(Integer cpus, Long memoryMb, Integer gpus) {

    /** The shape, when the settings give all of it (GPUs default to none). */
    public Optional<VmShape> complete() {
        if (cpus == null || memoryMb == null) {
            return Optional.empty();
        }
        return Optional.of(new VmShape(cpus, memoryMb, gpus == null ? 0 : gpus));
    }

    /** The provider's shape with every part the settings give put in its place. */
    public VmShape over(VmShape fromProvider) {
        return new VmShape(cpus != null ? cpus : fromProvider.cpus(),
                memoryMb != null ? memoryMb : fromProvider.memoryMb(),
                gpus != null ? gpus : fromProvider.gpus());
    }
}
