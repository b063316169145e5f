package io.hpcscale.cloud.azure;

import com.azure.resourcemanager.resources.fluent.ResourcesClient;
import com.azure.resourcemanager.resources.fluent.models.GenericResourceInner;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.cloud.azure.StandbyPoolSettings.VmState;
import io.hpcscale.scaler.cloud.AccessDeniedException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.NotFoundException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A pool's standby pool as Resource Manager serves it: the provider's registration, the pool, its runtime view, and
 * the PUT that sets it, through the resources SDK's generic calls ({@link StandbyPoolKeeper} decides when).
 */
final class StandbyPoolResource {
    /** The first version with {@code Hibernated} (standbyVMPool.tsp: {@code @added(2025-03-01)}). */
    static final String API_VERSION = "2025-03-01";
    static final String NAMESPACE = "Microsoft.StandbyPool";
    static final String POOL_TAG = "hpcscale-pool";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private final AzureClients clients;
    private final AzurePoolSettings pool;
    private final StandbyPoolSettings wanted;

    StandbyPoolResource(AzureClients clients, AzurePoolSettings pool) {
        this.clients = clients;
        this.pool = pool;
        this.wanted = pool.standbyPool();
    }

    /**
     * The standby pool as a GET shows it.
     *
     * @param properties all its properties, which a PUT sends back with hpcscale's three set
     */
    record Observed(VmState state, long maxReady, long minReady, String scaleSetId, String provisioningState,
            Map<String, String> tags, Map<String, Object> properties) {
        boolean asWanted(StandbyPoolSettings wanted, String scaleSetId) {
            return state == wanted.state() && maxReady == wanted.size() && minReady == wanted.size()
                    && scaleSetId.equalsIgnoreCase(this.scaleSetId);
        }

        /** Azure is still applying a change (provisioningState Creating, Updating, Deleting). */
        boolean settling() {
            return provisioningState != null && !provisioningState.equalsIgnoreCase("Succeeded")
                    && !failed() && !provisioningState.equalsIgnoreCase("Canceled");
        }

        boolean failed() {
            return "Failed".equalsIgnoreCase(provisioningState);
        }
    }

    /**
     * The runtime view's health ({@code status.code}: {@code HealthState/healthy} or {@code .../degraded}; Microsoft
     * Learn, "Understand the health state of your standby pool") and its VMs by state, summed over zones.
     */
    record Health(String code, String message, Map<String, Long> vmsByState) {
        boolean healthy() {
            return code == null || code.equalsIgnoreCase("HealthState/healthy");
        }

        String describe() {
            StringBuilder text = new StringBuilder();
            vmsByState.forEach((state, count) -> {
                if (count > 0) {
                    text.append(text.isEmpty() ? "" : ", ").append(count).append(' ').append(state);
                }
            });
            return (text.isEmpty() ? "no VMs yet" : text) + (code == null ? "" : "; " + code
                    + (message == null ? "" : " (" + message + ")"));
        }
    }

    /**
     * The provider's registration state ({@code Registered}, {@code NotRegistered}, ...), or empty when the scaler may
     * not read it.
     */
    Optional<String> registrationState() throws CloudException {
        try {
            return Optional.ofNullable(clients.compute(pool.subscriptionId()).resourceManager().providers()
                    .getByName(NAMESPACE).registrationState());
        } catch (RuntimeException e) {
            CloudException mapped = ArmErrors.map("read the registration of " + NAMESPACE, e, 0);
            if (mapped instanceof AccessDeniedException) {
                return Optional.empty();
            }
            throw mapped;
        }
    }

    /** The pool, or empty when Azure has no such resource; any other failure is not taken for "none". */
    Optional<Observed> read() throws CloudException {
        GenericResourceInner resource;
        try {
            resource = resources().getById(id(), API_VERSION);
        } catch (RuntimeException e) {
            CloudException mapped = explained("read " + describe(), e);
            String code = ArmErrors.code(e);
            if (mapped instanceof NotFoundException && !"ResourceGroupNotFound".equalsIgnoreCase(code)
                    && !"SubscriptionNotFound".equalsIgnoreCase(code)) {
                return Optional.empty();
            }
            throw mapped;
        }
        JsonNode properties = JSON.valueToTree(resource.properties());
        JsonNode elasticity = properties.path("elasticityProfile");
        Map<String, Object> all = properties.isObject() ? JSON.convertValue(properties, MAP) : Map.of();
        return Optional.of(new Observed(VmState.ofApi(properties.path("virtualMachineState").asText()).orElse(null),
                elasticity.path("maxReadyCapacity").asLong(-1), elasticity.path("minReadyCapacity").asLong(-1),
                properties.path("attachedVirtualMachineScaleSetId").asText(""),
                properties.path("provisioningState").asText(null),
                resource.tags() == null ? Map.of() : resource.tags(), all));
    }

    /** The pool's runtime view ({@code .../runtimeViews/latest}). */
    Health health() throws CloudException {
        GenericResourceInner view;
        try {
            view = resources().getById(id() + "/runtimeViews/latest", API_VERSION);
        } catch (RuntimeException e) {
            throw explained("read the runtime view of " + describe(), e);
        }
        JsonNode properties = JSON.valueToTree(view.properties());
        Map<String, Long> byState = new TreeMap<>();
        for (JsonNode zone : properties.path("instanceCountSummary")) {
            for (JsonNode count : zone.path("instanceCountsByState")) {
                byState.merge(count.path("state").asText("unknown").toLowerCase(Locale.ROOT),
                        count.path("count").asLong(0), Long::sum);
            }
        }
        JsonNode status = properties.path("status");
        return new Health(status.path("code").asText(null), status.path("message").asText(null), byState);
    }

    /**
     * Puts the pool in {@code state} with the configured size, sending back the other properties and the tags the
     * GET showed ({@code found}, null for a new pool); Azure's reply is not waited for.
     */
    void put(ScaleSetModel scaleSet, VmState state, Observed found) throws CloudException {
        Map<String, Object> properties = new LinkedHashMap<>(found == null ? Map.of() : found.properties());
        properties.remove("provisioningState");
        Map<String, Object> elasticity = new LinkedHashMap<>();
        if (properties.get("elasticityProfile") instanceof Map<?, ?> existing) {
            existing.forEach((key, value) -> elasticity.put(String.valueOf(key), value));
        }
        // Azure keeps maxReadyCapacity minus the scale set's instances in the pool, never fewer than
        // minReadyCapacity (Microsoft Learn, "Standby pool size"): both at the size keep the size whatever the
        // scale set holds.
        elasticity.put("maxReadyCapacity", wanted.size());
        elasticity.put("minReadyCapacity", wanted.size());
        properties.put("elasticityProfile", elasticity);
        properties.put("attachedVirtualMachineScaleSetId", scaleSet.id());
        properties.put("virtualMachineState", state.api());
        Map<String, String> tags = new HashMap<>(found == null ? Map.of() : found.tags());
        tags.put(POOL_TAG, pool.pool());
        GenericResourceInner body = new GenericResourceInner().withLocation(scaleSet.location()).withTags(tags)
                .withProperties(properties);
        try {
            resources().beginCreateOrUpdateById(id(), API_VERSION, body);
        } catch (RuntimeException e) {
            throw explained("put " + describe() + " (" + wanted.size() + " " + state.setting() + " VMs)", e);
        }
    }

    /**
     * Azure's error, typed as ever, with what to do when the standby pool provider is not registered. On such a
     * refusal the SDK asks Azure to register it and waits for that up to five minutes before sending the request again
     * (ProviderRegistrationPolicy); an identity that may not register it gets the first refusal back.
     */
    private static CloudException explained(String asked, RuntimeException e) {
        CloudException mapped = ArmErrors.map(asked, e, 0);
        if (!"missingsubscriptionregistration".equalsIgnoreCase(ArmErrors.code(e))) {
            return mapped;
        }
        return new CloudException(mapped.getMessage() + "; register the provider once with: az provider register "
                + "--namespace Microsoft.StandbyPool (it can take 30 minutes; the SDK registers it itself only for an "
                + "identity allowed Microsoft.StandbyPool/register/action on the subscription)", e);
    }

    private String id() {
        return "/subscriptions/" + pool.subscriptionId() + "/resourceGroups/" + pool.resourceGroup()
                + "/providers/Microsoft.StandbyPool/standbyVirtualMachinePools/" + wanted.name();
    }

    private String describe() {
        return "standby pool " + wanted.name() + " of " + pool.describe();
    }

    private ResourcesClient resources() {
        return clients.compute(pool.subscriptionId()).resourceManager().serviceClient().getResources();
    }
}
