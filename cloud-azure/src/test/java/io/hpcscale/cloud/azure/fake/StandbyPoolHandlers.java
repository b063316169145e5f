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

    ArmResponse runtimeView(ArmRequest request) {
        registered();
        ResourceGroup group = state.requireGroup(request.param("rg"));
        return pools.get(group.name(), request.param("name"))
            .map(pool -> ArmResponse.ok(pool.runtimeView(settings.clock().instant())))
            .orElseThrow(() -> ArmException.resourceNotFound(TYPE, request.param("name"), group.name()));
    }

    /**
     * Creates (201, with {@code Azure-AsyncOperation}, which the SDK follows to the end) or updates (200) the pool,
     * both with the resource (StandbyVirtualMachinePools_CreateOrUpdate.json).
     */
    ArmResponse put(ArmRequest request) {
        registered();
        ResourceGroup group = state.requireGroup(request.param("rg"));
        JsonNode body = request.json();
        ObjectNode properties = body.path("properties").isObject() ? (ObjectNode) body.get("properties")
            : Json.object();
        String vmState = properties.path("virtualMachineState").asText("");
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
        int instances = group.scaleSets().stream().filter(s -> s.id().equalsIgnoreCase(scaleSetId))
            .mapToInt(ScaleSet::capacity).findFirst().orElse(0);
        pool.apply(body.path("location").asText(group.location()), tags, properties, instances,
            settings.clock().instant(), settings.bootDelay());
        ObjectNode reply = pool.toJson();
        if (existing != null) {
            return ArmResponse.json(200, reply);
        }
        Operation operation = operations.begin(group.location(), request.outcome());
        return operations.withStatusHeader(ArmResponse.json(201, reply), request, operation, "Microsoft.StandbyPool");
    }

    /**
     * {@code POST .../providers/Microsoft.StandbyPool/register}, which the management SDK's ProviderRegistrationPolicy
     * sends when a request is refused with MissingSubscriptionRegistration, before polling the registration and
     * sending the request again (azure-resourcemanager-resources). Azure can take 30 minutes (Learn); here it is done
     * at once.
     */
    ArmResponse register(ArmRequest request) {
        pools.registered(true);
        return provider(request);
    }

    /** {@code GET /subscriptions/{id}/providers/Microsoft.StandbyPool}: the provider and its registration. */
    ArmResponse provider(ArmRequest request) {
        ObjectNode body = Json.object();
        body.put("id", "/subscriptions/" + request.param("sub") + "/providers/Microsoft.StandbyPool");
        body.put("namespace", "Microsoft.StandbyPool");
        body.put("registrationState", pools.registrationState());
        body.putArray("resourceTypes");
        return ArmResponse.ok(body);
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
