package io.hpcscale.scaler.removal;

import java.time.Instant;

/** Removal requests as nodes of one subscription send them, for the tests of every removal queue. */
public final class RemovalRequests {
    public static final String SUBSCRIPTION = "8d2a5c1e-3f4b-4a6d-9e7c-1b0a2c3d4e5f";
    public static final String UNIFORM_ID = "/subscriptions/" + SUBSCRIPTION + "/resourceGroups/rg-render/providers/"
            + "Microsoft.Compute/virtualMachineScaleSets/render/virtualMachines/3";
    public static final String FLEXIBLE_ID = "/subscriptions/" + SUBSCRIPTION + "/resourceGroups/rg-render/providers/"
            + "Microsoft.Compute/virtualMachines/render-flex_4f3c2a1b";
    static final Instant AT = Instant.parse("2025-03-01T12:00:00Z");

    private RemovalRequests() {
    }

    /** Instance 3 of the Uniform scale set render, asked to go by its node. */
    public static RemovalRequest uniform() {
        return new RemovalRequest(VmResourceId.parse(UNIFORM_ID), "render", "render000003", AT,
                "hpcscale-delete-me 0.1.0 on render000003", "render job finished");
    }
}
