package io.hpcscale.cloud.azure;

import io.hpcscale.cloud.azure.StandbyPoolResource.Health;
import io.hpcscale.cloud.azure.StandbyPoolResource.Observed;
import io.hpcscale.cloud.azure.StandbyPoolSettings.VmState;
import io.hpcscale.scaler.cloud.CloudException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

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
    /** How often the pool is read to see that it is still as configured and healthy. */
    static final Duration CHECK_EVERY = Duration.ofMinutes(10);
    /** How soon a change put, or one Azure is still applying, is read back. */
    static final Duration READ_BACK = Duration.ofMinutes(1);

    private final StandbyPoolResource resource;
    private final AzurePoolSettings pool;
    private final StandbyPoolSettings wanted;
    private final Clock clock;
    private Instant nextCheck;
    /** The state last put and when: a pool that reads back otherwise is not put again every cycle. */
    private VmState lastPut;
    private Instant lastPutAt;
    /** When the runtime view was first seen degraded, of the reads in a row that saw it so; null when healthy. */
    private Instant degradedSince;
    /** Seen registered once: a provider's registration is not read again; false also when it could not be read. */
    private volatile boolean providerRegistered;

    StandbyPoolKeeper(AzureClients clients, AzurePoolSettings pool) {
        this.pool = pool;
        this.wanted = Objects.requireNonNull(pool.standbyPool(), "the pool has no standby pool");
        this.resource = new StandbyPoolResource(clients, pool);
        this.clock = clients.pace().clock();
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
            Health health = resource.health();
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
        resource.put(scaleSet, step.state(), step.found());
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
        Observed found = resource.read().orElse(null);
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

    /** The pool's runtime view, for check. */
    Health health() throws CloudException {
        return resource.health();
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
        Optional<String> state = resource.registrationState();
        if (state.isPresent() && !"Registered".equalsIgnoreCase(state.get())) {
            throw new CloudException("cannot keep " + describe() + ": the subscription has not registered "
                    + StandbyPoolResource.NAMESPACE + " (" + state.get() + "); register it once with: az provider "
                    + "register --namespace " + StandbyPoolResource.NAMESPACE + " (Azure can take 30 minutes); the "
                    + "scaler does not, so that no cycle waits for it");
        }
        providerRegistered = state.isPresent();
    }


}
