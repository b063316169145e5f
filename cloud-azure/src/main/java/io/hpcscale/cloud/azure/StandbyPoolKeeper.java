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
 * <p>Requests: at the first cycle and every {@link #CHECK_EVERY} after, a GET of the scale set (Compute's), of the
 * pool and of its runtime view, and of the provider's registration until it is seen registered (Resource Manager's);
 * a PUT only when the pool must change, sent without waiting for Azure to apply it (that can take minutes, and the
 * pool's cycle must not wait), and read back a minute later, then each minute while Azure applies it. After a
 * failure the pool is checked again {@link #CHECK_EVERY} later: scaling goes on without the standby pool, Azure
 * creating VMs instead.
 */
final class StandbyPoolKeeper {
    /** The first version with {@code Hibernated} (standbyVMPool.tsp: {@code @added(2025-03-01)}). */
    static final String API_VERSION = "2025-03-01";
    /** How often the pool is read to see that it is still as configured and healthy. */
    static final Duration CHECK_EVERY = Duration.ofMinutes(10);
    /** How soon a change put, or one Azure is still applying, is read back. */
    static final Duration READ_BACK = Duration.ofMinutes(1);
    static final String NAMESPACE = "Microsoft.StandbyPool";
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
    /** When the runtime view was first seen degraded, of the reads in a row that saw it so; null when healthy. */
    private Instant degradedSince;
    /** Seen registered once: a provider's registration is not read again. */
    private volatile boolean providerRegistered;

    StandbyPoolKeeper(AzureClients clients, AzurePoolSettings pool) {
        this.clients = clients;
        this.pool = pool;
        this.wanted = Objects.requireNonNull(pool.standbyPool(), "the pool has no standby pool");
        this.clock = clients.pace().clock();
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
     * What the standby pool needs now: nothing ({@code state} null: as configured, or Azure still applying a change),
     * or a PUT of {@code state}.
     *
     * @param found what Azure shows, or null when it has no such pool
     */
    record Step(Observed found, VmState state, String why) {
    }

    /** Reads the scale set; the keeper checks the pool against it as it is now. */
    @FunctionalInterface
    interface ScaleSetRead {
        ScaleSetModel read() throws CloudException;
    }

    /** Whether a check is due: at the first cycle, {@link #CHECK_EVERY} after the last, sooner after a change. */
    synchronized boolean due() {
        return nextCheck == null || !clock.instant().isBefore(nextCheck);
    }

    /**
     * Reads the scale set and the standby pool and, unless the pool is as configured or Azure is still applying a
     * change, puts the next step towards it. A pool as configured whose runtime view is degraded at two checks in a row
     * is a failure (Azure pauses a degraded pool 30 s and tries again, so one read of it may be passing).
     *
     * @return what was changed, or empty when nothing was needed
     * @throws CloudException what went wrong, or why the scaler may not keep this pool
     */
    synchronized Optional<String> keep(ScaleSetRead scaleSetRead) throws CloudException {
        Instant now = clock.instant();
        nextCheck = now.plus(CHECK_EVERY);
        ScaleSetModel scaleSet = scaleSetRead.read();
        Step step = plan(scaleSet);
        if (step.state() == null) {
            if (step.found().settling()) {
                nextCheck = now.plus(READ_BACK);
                return Optional.empty();
            }
            Health health = health();
            if (health.healthy()) {
                degradedSince = null;
                return Optional.empty();
            }
            if (degradedSince == null) {
                degradedSince = now;
                return Optional.empty();
            }
            throw new CloudException(step.why() + ", but Azure has reported it degraded since " + degradedSince
                    + ": " + health.describe() + ". Azure cannot make its VMs: often a role its Standby Pool Resource "
                    + "Provider lacks, or a quota, capacity or an extension failing (docs/running-on-azure.md, "
                    + "Standby pools)");
        }
        if (step.state() == lastPut && lastPutAt != null && now.isBefore(lastPutAt.plus(CHECK_EVERY))) {
            throw new CloudException(step.why() + " after the scaler put it at " + lastPutAt + (step.found() != null
                    && step.found().failed() ? ": Azure failed that change" : ": Azure did not keep what was put")
                    + "; put again from " + lastPutAt.plus(CHECK_EVERY));
        }
        put(scaleSet, step);
        lastPut = step.state();
        lastPutAt = now;
        nextCheck = now.plus(READ_BACK);
        String done = (step.found() == null ? "created " : "set ") + describe() + " to " + wanted.size() + " "
                + step.state().setting() + " VMs (" + step.why() + ")";
        if (step.state() != wanted.state()) {
            return Optional.of(done + " on the way to " + wanted.state().setting() + ": Azure moves a standby pool "
                    + "between deallocated and hibernated only through running; the next step once Azure has applied "
                    + "this one");
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
        requireRegistration();
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

    /**
     * Refuses a subscription that has not registered the provider, before any request to it: on such a request's
     * refusal the SDK would register it itself where the identity may (a write, and from check too) and wait up to
     * five minutes for it (ProviderRegistrationPolicy). An identity that may not read the registration goes on: the
     * pool's own read then says.
     */
    private void requireRegistration() throws CloudException {
        if (providerRegistered) {
            return;
        }
        String state;
        try {
            state = clients.compute(pool.subscriptionId()).resourceManager().providers().getByName(NAMESPACE)
                    .registrationState();
        } catch (RuntimeException e) {
            CloudException mapped = ArmErrors.map("read the registration of " + NAMESPACE, e, 0);
            if (mapped instanceof AccessDeniedException) {
                return;
            }
            throw mapped;
        }
        if (!"Registered".equalsIgnoreCase(state)) {
            throw new CloudException("cannot keep " + describe() + ": the subscription has not registered " + NAMESPACE
                    + " (" + state + "); register it once with: az provider register --namespace " + NAMESPACE
                    + " (Azure can take 30 minutes); the scaler does not, so that no cycle waits for it");
        }
        providerRegistered = true;
    }

    /** The pool, or empty when Azure has no such resource; any other failure is not taken for "none". */
    private Optional<Observed> read() throws CloudException {
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
     * Puts the pool with the step's state and the configured size, sending back the other properties and the tags the
     * GET showed; Azure's reply is not waited for.
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
