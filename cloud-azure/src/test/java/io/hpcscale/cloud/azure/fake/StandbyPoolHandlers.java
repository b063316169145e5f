package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code Microsoft.StandbyPool/standbyVirtualMachinePools}: GET and PUT, as the REST API's 2025-03-01 examples
 * (azure-rest-api-specs, specification/standbypool) and standbyVMPool.tsp describe them.
 */
final class StandbyPoolHandlers {
    static final String TYPE = "Microsoft.StandbyPool/standbyVirtualMachinePools";
    private final ArmState state;
    private final StandbyPools pools;
    private final Operations operations;
    private final Settings settings;

    StandbyPoolHandlers(ArmState state, StandbyPools pools, Operations operations, Settings settings) {
        this.state = state;
        this.pools = pools;
        this.operations = operations;
        this.settings = settings;
    }

    ArmResponse get(ArmRequest request) {
        registered();
        ResourceGroup group = state.requireGroup(request.param("rg"));
        return pools.get(group.name(), request.param("name"))
            .map(pool -> ArmResponse.ok(pool.toJson()))
            .orElseThrow(() -> ArmException.resourceNotFound(TYPE, request.param("name"), group.name()));
    }

    /**
     * Creates (201) or updates (200) the pool. Both carry the resource and {@code Azure-AsyncOperation}
     * (StandbyVirtualMachinePools_CreateOrUpdate.json; the spec's final state is via azure-async-operation).
     */
    ArmResponse put(ArmRequest request) {
        registered();
        ResourceGroup group = state.requireGroup(request.param("rg"));
        JsonNode body = request.json();
        JsonNode properties = body.path("properties");
        String vmState = properties.path("virtualMachineState").asText("");
        JsonNode elasticity = properties.path("elasticityProfile");
        long maxReady = elasticity.path("maxReadyCapacity").asLong(0);
        long minReady = elasticity.path("minReadyCapacity").asLong(0);
        String scaleSetId = properties.path("attachedVirtualMachineScaleSetId").asText("");
        StandbyPool existing = pools.get(group.name(), request.param("name")).orElse(null);
        if (existing != null && between(existing.vmState(), vmState)) {
            // Microsoft Learn, update or delete a standby pool: "Transitioning between a Stopped (deallocated)
            // state and a hibernated state is not supported ... first transition to a running pool". The error
            // code is not documented.
            throw ArmException.badRequest("BadRequest", "Transitioning a standby pool from " + existing.vmState()
                + " to " + vmState + " is not supported; transition to Running first.",
                "properties.virtualMachineState");
        }
        Map<String, String> tags = new HashMap<>();
        body.path("tags").fields().forEachRemaining(e -> tags.put(e.getKey(), e.getValue().asText()));
        StandbyPool pool = existing != null ? existing : pools.getOrCreate(group, request.param("name"));
        pool.apply(body.path("location").asText(group.location()), tags, scaleSetId, vmState, maxReady, minReady,
            settings.clock().instant(), settings.bootDelay());
        Operation operation = operations.begin(group.location(), request.outcome());
        ObjectNode reply = pool.toJson();
        return operations.withStatusHeader(ArmResponse.json(existing == null ? 201 : 200, reply), request, operation,
            "Microsoft.StandbyPool");
    }

    private static boolean between(String from, String to) {
        return (from.equalsIgnoreCase("Deallocated") && to.equalsIgnoreCase("Hibernated"))
            || (from.equalsIgnoreCase("Hibernated") && to.equalsIgnoreCase("Deallocated"));
    }

    /**
     * ARM's refusal of a resource type whose provider the subscription has not registered (Microsoft Learn, resolve
     * errors for resource provider registration).
     */
    private void registered() {
        if (!pools.registered()) {
            throw new ArmException(409, "MissingSubscriptionRegistration", "The subscription is not registered to "
                + "use namespace 'Microsoft.StandbyPool'. See https://aka.ms/rps-not-found for how to register "
                + "subscriptions.");
        }
    }
}
