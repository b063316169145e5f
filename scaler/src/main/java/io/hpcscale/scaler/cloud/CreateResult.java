package io.hpcscale.scaler.cloud;

import java.util.List;

/**
 * What a create call added: some instances may have been created before the cloud refused the rest.
 *
 * @param failure why fewer than asked were created, or null
 */
public record CreateResult(List<Instance> created, CloudException failure) {
    public CreateResult {
        created = List.copyOf(created);
    }
}
