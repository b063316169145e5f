package io.hpcscale.scaler.cloud;

import java.util.List;

/**
 * What a create call added: some instances may have been created before the cloud refused the rest.
 *
 * @param failure why fewer than asked were created, or null
 * @param sealed  scale sets this call sealed: no more growth is asked of them
 */
public record CreateResult(List<Instance> created, CloudException failure, List<Sealing> sealed) {
    public CreateResult {
        created = List.copyOf(created);
        sealed = List.copyOf(sealed);
    }

    public CreateResult(List<Instance> created, CloudException failure) {
        this(created, failure, List.of());
    }

    /** A scale set that stopped growing, and why. */
    public record Sealing(String scaleSet, String reason) {
    }
}
