package io.hpcscale.cloud.azure;

import com.azure.resourcemanager.resources.fluent.ResourcesClient;
import com.azure.resourcemanager.resources.fluent.models.GenericResourceInner;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.cloud.azure.StandbyPoolSettings.VmState;
import io.hpcscale.scaler.cloud.CloudException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Keeps a pool's standby pool as {@code pool.<name>.azure.standbyPool*} say: creates it when missing, sets it back
 * when its state, size or scale set differ, and otherwise only reads it and its health.
 *
 * <p>Requests: two GETs (the pool and its runtime view) at the first cycle and every {@link #CHECK_EVERY} after
 * (Resource Manager's reads, not Compute's); a PUT only when the pool must change, sent without waiting for Azure to
 * apply it (that can take minutes, and the pool's cycle must not wait), and read back at the next cycle. After a
 * failure the pool is checked again {@link #CHECK_EVERY} later: scaling goes on without the standby pool, Azure
 * creating VMs instead.
 */
final class StandbyPoolKeeper {
    /** The first version with {@code Hibernated} (standbyVMPool.tsp: {@code @added(2025-03-01)}). */
    static final String API_VERSION = "2025-03-01";
    /** How often the pool is read to see that it is still as configured and healthy. */
    static final Duration CHECK_EVERY = Duration.ofMinutes(10);
    static final String POOL_TAG = "hpcscale-pool";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private final AzureClients clients;
    private final AzurePoolSettings pool;
    private final StandbyPoolSettings wanted;
    private final Clock clock;
    private Instant nextCheck;
    /** The state last put and when: a pool that reads back otherwise is not put again every cycle. */
    private VmState lastPut;
    private Instant lastPutAt;

    StandbyPoolKeeper(AzureClients clients, AzurePoolSettings pool) {
        this.clients = clients;
        this.pool = pool;
        this.wanted = Objects.requireNonNull(pool.standbyPool(), "the pool has no standby pool");
        this.clock = clients.pace().clock();
    }

    /**
     * The standby pool as a GET shows it.
     *
     * @param properties all its properties, so that a PUT keeps those hpcscale does not set (a newer API's
     *                   {@code postProvisioningDelay}, for one)
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
     * What the standby pool needs now: nothing ({@code state} null: as configured, or Azure still applying a change),
     * or a PUT of {@code state}.
     *
     * @param found what Azure shows, or null when it has no such pool
     */
    record Step(Observed found, VmState state, String why) {
    }

    /** Whether a check is due: at the first cycle, {@link #CHECK_EVERY} after the last, or at once after a change. */
    synchronized boolean due() {
        return nextCheck == null || !clock.instant().isBefore(nextCheck);
    }

    /**
     * Reads the standby pool and, unless it is as configured or Azure is still applying a change, puts the next
     * step towards it; a pool as configured whose runtime view is not healthy is a failure.
     *
     * @return what was changed, or empty when nothing was needed
     * @throws CloudException what went wrong, or why the scaler may not keep this pool
     */
    synchronized Optional<String> keep(ScaleSetModel scaleSet) throws CloudException {
        nextCheck = clock.instant().plus(CHECK_EVERY);
        Step step = plan(scaleSet);
        if (step.state() == null) {
            if (step.found().settling()) {
                nextCheck = clock.instant();
                return Optional.empty();
            }
            Health health = health();
            if (!health.healthy()) {
                throw new CloudException(step.why() + ", but Azure reports it " + health.describe() + ": a "
                        + "standby pool that cannot make its VMs usually lacks a role of Azure's Standby Pool Resource "
                        + "Provider (docs/running-on-azure.md, Standby pools)");
            }
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (step.state() == lastPut && lastPutAt != null && now.isBefore(lastPutAt.plus(CHECK_EVERY))) {
            throw new CloudException(step.why() + " after the scaler put it at " + lastPutAt + ": Azure did not keep "
                    + "what was put; put again from " + lastPutAt.plus(CHECK_EVERY));
        }
        put(scaleSet, step);
        lastPut = step.state();
        lastPutAt = now;
        nextCheck = now;
        String done = (step.found() == null ? "created " : "set ") + describe() + " to " + wanted.size() + " "
                + step.state().setting() + " VMs (" + step.why() + ")";
        if (step.state() != wanted.state()) {
            return Optional.of(done + " on the way to " + wanted.state().setting() + ": Azure moves a standby pool "
                    + "between deallocated and hibernated only through running; the next cycle takes the second "
                    + "step");
        }
        return Optional.of(done);
    }

    /**
     * Reads the standby pool and says what it needs, changing nothing.
     *
     * @throws CloudException when it cannot be read, or the scaler may not keep it for this scale set
     */
    Step plan(ScaleSetModel scaleSet) throws CloudException {
        refuseWhatAzureDoesNotSupport(scaleSet);
        Observed found = read().orElse(null);
        if (found == null) {
            return new Step(null, wanted.state(), describe() + " does not exist");
        }
        if (!found.scaleSetId().isEmpty() && !found.scaleSetId().equalsIgnoreCase(scaleSet.id())) {
            throw new CloudException("will not take over " + describe() + ": it is attached to "
                    + found.scaleSetId() + "; name another standby pool in pool." + pool.pool()
                    + ".azure.standbyPool");
        }
        if (found.settling()) {
            return new Step(found, null, describe() + " is " + found.provisioningState() + " in Azure");
        }
        if (found.asWanted(wanted, scaleSet.id()) && !found.failed()) {
            return new Step(found, null, describe() + " holds " + wanted.size() + " " + wanted.state().setting()
                    + " VMs as configured");
        }
        return new Step(found, nextState(found.state(), wanted.state()), describe() + " was "
                + (found.maxReady() < 0 ? "of an unknown size" : "of " + found.maxReady()) + " "
                + (found.state() == null ? "" : found.state().setting() + " ") + "VMs"
                + (found.scaleSetId().isEmpty() ? ", attached to no scale set" : "")
                + (found.failed() ? ", and its last change failed" : ""));
    }

    /**
     * Microsoft Learn's standby pools overview, "Limitations and considerations": Flexible scale sets only, none with
     * a fault domain count above 1; ephemeral OS disks cannot be deallocated. Hibernation needs the scale set's VMs
     * made with it enabled.
     */
    private void refuseWhatAzureDoesNotSupport(ScaleSetModel scaleSet) throws CloudException {
        String setting = "pool." + pool.pool() + ".azure.standbyPool";
        if (!scaleSet.flexible()) {
            throw new CloudException("cannot keep " + describe() + ": Azure attaches standby pools to Flexible scale "
                    + "sets only; remove " + setting);
        }
        if (scaleSet.faultDomainCount() != null && scaleSet.faultDomainCount() > 1) {
            throw new CloudException("cannot keep " + describe() + ": Azure does not attach standby pools to a scale "
                    + "set of " + scaleSet.faultDomainCount() + " fault domains (platformFaultDomainCount above 1); "
                    + "remove " + setting + " or use a scale set of one fault domain");
        }
        if (scaleSet.ephemeralOsDisk() && wanted.state() != VmState.RUNNING) {
            throw new CloudException("cannot keep " + describe() + " " + wanted.state().setting() + ": the scale "
                    + "set's OS disks are ephemeral, which Azure cannot deallocate; set pool." + pool.pool()
                    + ".azure.standbyPoolState = running, or give the scale set managed OS disks");
        }
        if (wanted.state() == VmState.HIBERNATED && !scaleSet.hibernationEnabled()) {
            throw new CloudException("cannot keep " + describe() + " hibernated: the scale set does not enable "
                    + "hibernation (additionalCapabilities.hibernationEnabled); enable it, or set pool." + pool.pool()
                    + ".azure.standbyPoolState = deallocated");
        }
    }

    /**
     * The state to ask for now: Azure refuses to move a pool straight between deallocated and hibernated, "first
     * transition to a running pool" (Microsoft Learn, update or delete a standby pool).
     */
    static VmState nextState(VmState current, VmState wanted) {
        boolean between = (current == VmState.DEALLOCATED && wanted == VmState.HIBERNATED)
                || (current == VmState.HIBERNATED && wanted == VmState.DEALLOCATED);
        return between ? VmState.RUNNING : wanted;
    }

    String describe() {
        return "standby pool " + wanted.name() + " of " + pool.describe();
    }

    /** The pool, or empty when Azure has no such resource; any other failure is not taken for "none". */
    private Optional<Observed> read() throws CloudException {
        GenericResourceInner resource;
        try {
            resource = resources().getById(id(), API_VERSION);
        } catch (RuntimeException e) {
            if ("ResourceNotFound".equalsIgnoreCase(ArmErrors.code(e))) {
                return Optional.empty();
            }
            throw explained("read " + describe(), e);
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
     * Puts the pool with the step's state and the configured size, keeping the properties and tags it has; Azure's
     * reply is not waited for.
     */
    private void put(ScaleSetModel scaleSet, Step step) throws CloudException {
        Map<String, Object> properties = new LinkedHashMap<>(step.found() == null ? Map.of()
                : step.found().properties());
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
        properties.put("virtualMachineState", step.state().api());
        Map<String, String> tags = new HashMap<>(step.found() == null ? Map.of() : step.found().tags());
        tags.put(POOL_TAG, pool.pool());
        GenericResourceInner body = new GenericResourceInner().withLocation(scaleSet.location()).withTags(tags)
                .withProperties(properties);
        try {
            resources().beginCreateOrUpdateById(id(), API_VERSION, body);
        } catch (RuntimeException e) {
            throw explained("put " + describe() + " (" + wanted.size() + " " + step.state().setting() + " VMs)", e);
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

    private ResourcesClient resources() {
        return clients.compute(pool.subscriptionId()).resourceManager().serviceClient().getResources();
    }
}
