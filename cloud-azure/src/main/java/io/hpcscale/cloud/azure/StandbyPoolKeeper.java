package io.hpcscale.cloud.azure;

import com.azure.core.util.polling.SyncPoller;
import com.azure.resourcemanager.resources.fluent.ResourcesClient;
import com.azure.resourcemanager.resources.fluent.models.GenericResourceInner;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.cloud.azure.StandbyPoolSettings.VmState;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.NotFoundException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Keeps a pool's standby pool as {@code pool.<name>.azure.standbyPool*} say: creates it when missing, sets it back
 * when its state, size or scale set differ, and otherwise only reads it.
 *
 * <p>Requests: one GET at the first cycle and one every {@link #CHECK_EVERY} after (Resource Manager's reads, not
 * Compute's); a PUT only when the pool must change. After a failure the pool is checked again {@link #CHECK_EVERY}
 * later: scaling goes on without the standby pool, Azure creating VMs instead.
 */
final class StandbyPoolKeeper {
    /** The first version with {@code Hibernated} (standbyVMPool.tsp: {@code @added(2025-03-01)}). */
    static final String API_VERSION = "2025-03-01";
    /** How often the pool is read to see that it is still as configured. */
    static final Duration CHECK_EVERY = Duration.ofMinutes(10);
    static final String POOL_TAG = "hpcscale-pool";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final AzureClients clients;
    private final AzurePoolSettings pool;
    private final StandbyPoolSettings wanted;
    private final LongOperations operations;
    private final Clock clock;
    private Instant nextCheck;

    StandbyPoolKeeper(AzureClients clients, AzurePoolSettings pool, LongOperations operations) {
        this.clients = clients;
        this.pool = pool;
        this.wanted = Objects.requireNonNull(pool.standbyPool(), "the pool has no standby pool");
        this.operations = operations;
        this.clock = clients.pace().clock();
    }

    /** The standby pool as Azure shows it, or what it holds when the pool has just been created. */
    record Observed(VmState state, long maxReady, long minReady, String scaleSetId, String provisioningState,
            Map<String, String> tags) {
        boolean asWanted(StandbyPoolSettings wanted, String scaleSetId) {
            return state == wanted.state() && maxReady == wanted.size() && minReady == wanted.size()
                    && scaleSetId.equalsIgnoreCase(this.scaleSetId);
        }

        boolean settling() {
            return provisioningState != null && !provisioningState.equalsIgnoreCase("Succeeded")
                    && !provisioningState.equalsIgnoreCase("Failed") && !provisioningState.equalsIgnoreCase("Canceled");
        }
    }

    /**
     * Checks the standby pool when a check is due, and changes it if it must.
     *
     * @return what was changed, or empty when nothing was due or needed
     * @throws CloudException what went wrong, saying that scaling goes on without the standby pool
     */
    synchronized Optional<String> keepIfDue(ScaleSetModel scaleSet) throws CloudException, InterruptedException {
        Instant now = clock.instant();
        if (nextCheck != null && now.isBefore(nextCheck)) {
            return Optional.empty();
        }
        nextCheck = now.plus(CHECK_EVERY);
        try {
            return keep(scaleSet);
        } catch (CloudException e) {
            throw new CloudException(e.getMessage() + "; the pool grows without it, Azure creating VMs, and the "
                    + "scaler tries again in " + CHECK_EVERY.toMinutes() + " minutes", e);
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

    /**
     * Reads the standby pool and says what it needs, changing nothing.
     *
     * @throws CloudException when it cannot be read, or the scaler may not keep it for this scale set
     */
    Step plan(ScaleSetModel scaleSet) throws CloudException {
        String what = describe();
        if (!scaleSet.flexible()) {
            throw new CloudException("cannot keep " + what + ": Azure attaches standby pools to Flexible scale sets "
                    + "only; remove pool." + pool.pool() + ".azure.standbyPool");
        }
        if (wanted.state() == VmState.HIBERNATED && !scaleSet.hibernationEnabled()) {
            throw new CloudException("cannot keep " + what + " hibernated: the scale set does not enable hibernation "
                    + "(additionalCapabilities.hibernationEnabled); enable it, or set pool." + pool.pool()
                    + ".azure.standbyPoolState = deallocated");
        }
        Observed found = read().orElse(null);
        if (found == null) {
            return new Step(null, wanted.state(), what + " does not exist");
        }
        if (!found.scaleSetId().isEmpty() && !found.scaleSetId().equalsIgnoreCase(scaleSet.id())) {
            throw new CloudException("will not take over " + what + ": it is attached to " + found.scaleSetId()
                    + "; name another standby pool in pool." + pool.pool() + ".azure.standbyPool");
        }
        if (found.settling()) {
            return new Step(found, null, what + " is " + found.provisioningState() + " in Azure");
        }
        if (found.asWanted(wanted, scaleSet.id()) && !"Failed".equalsIgnoreCase(found.provisioningState())) {
            return new Step(found, null, what + " holds " + wanted.size() + " " + wanted.state().setting()
                    + " VMs as configured");
        }
        return new Step(found, nextState(found.state(), wanted.state()), what + " holds "
                + (found.maxReady() < 0 ? "an unknown number of" : Long.toString(found.maxReady())) + " "
                + (found.state() == null ? "" : found.state().setting() + " ") + "VMs"
                + ("Failed".equalsIgnoreCase(found.provisioningState()) ? " and its last change failed" : "")
                + ", not " + wanted.size() + " " + wanted.state().setting());
    }

    /**
     * Reads the standby pool and, unless it is as configured or Azure is still applying a change, puts the next
     * step towards it.
     *
     * @return what was done, or empty when nothing was needed
     */
    Optional<String> keep(ScaleSetModel scaleSet) throws CloudException, InterruptedException {
        Step step = plan(scaleSet);
        if (step.state() == null) {
            if (step.found().settling()) {
                nextCheck = clock.instant();
            }
            return Optional.empty();
        }
        put(scaleSet, step.state(), step.found() == null ? Map.of() : step.found().tags());
        String done = (step.found() == null ? "created " : "set ") + describe() + " to " + wanted.size() + " "
                + step.state().setting() + " VMs";
        if (step.state() != wanted.state()) {
            nextCheck = clock.instant();
            return Optional.of(done + " on the way to " + wanted.state().setting() + ": Azure moves a standby pool "
                    + "between deallocated and hibernated only through running; the next cycle takes the second "
                    + "step");
        }
        return Optional.of(done + " (" + step.why() + ")");
    }

    String describe() {
        return "standby pool " + wanted.name() + " of " + pool.describe();
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

    private Optional<Observed> read() throws CloudException {
        GenericResourceInner resource;
        try {
            resource = resources().getById(id(), API_VERSION);
        } catch (RuntimeException e) {
            CloudException mapped = explained("read standby pool " + wanted.name(), e);
            if (mapped instanceof NotFoundException) {
                return Optional.empty();
            }
            throw mapped;
        }
        JsonNode properties = JSON.valueToTree(resource.properties());
        JsonNode elasticity = properties.path("elasticityProfile");
        return Optional.of(new Observed(VmState.ofApi(properties.path("virtualMachineState").asText()).orElse(null),
                elasticity.path("maxReadyCapacity").asLong(-1), elasticity.path("minReadyCapacity").asLong(-1),
                properties.path("attachedVirtualMachineScaleSetId").asText(""),
                properties.path("provisioningState").asText(null),
                resource.tags() == null ? Map.of() : resource.tags()));
    }

    private void put(ScaleSetModel scaleSet, VmState state, Map<String, String> tags)
            throws CloudException, InterruptedException {
        Map<String, Object> elasticity = new LinkedHashMap<>();
        elasticity.put("maxReadyCapacity", wanted.size());
        elasticity.put("minReadyCapacity", wanted.size());
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("attachedVirtualMachineScaleSetId", scaleSet.id());
        properties.put("virtualMachineState", state.api());
        properties.put("elasticityProfile", elasticity);
        Map<String, String> kept = new HashMap<>(tags);
        kept.put(POOL_TAG, pool.pool());
        GenericResourceInner body = new GenericResourceInner().withLocation(scaleSet.location()).withTags(kept)
                .withProperties(properties);
        String asked = "put standby pool " + wanted.name() + " (" + wanted.size() + " " + state.api() + " VMs for "
                + pool.describe() + ")";
        String unfinished;
        try {
            SyncPoller<?, ?> poller = resources().beginCreateOrUpdateById(id(), API_VERSION, body);
            unfinished = operations.await(poller);
        } catch (RuntimeException e) {
            throw explained(asked, e);
        }
        if (unfinished != null) {
            nextCheck = clock.instant();
            throw new CloudException("cannot yet tell what came of: " + asked + ": " + unfinished);
        }
    }

    /** Azure's error, with what to do when the standby pool provider is what is missing. */
    private static CloudException explained(String asked, RuntimeException e) {
        CloudException mapped = ArmErrors.map(asked, e, 0);
        if ("missingsubscriptionregistration".equalsIgnoreCase(ArmErrors.code(e))) {
            return new CloudException(mapped.getMessage() + "; register the provider once with: az provider "
                    + "register --namespace Microsoft.StandbyPool (it can take 30 minutes)", e);
        }
        return mapped;
    }

    private String id() {
        return "/subscriptions/" + pool.subscriptionId() + "/resourceGroups/" + pool.resourceGroup()
                + "/providers/Microsoft.StandbyPool/standbyVirtualMachinePools/" + wanted.name();
    }

    private ResourcesClient resources() {
        return clients.compute(pool.subscriptionId()).resourceManager().serviceClient().getResources();
    }
}
