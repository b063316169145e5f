package io.hpcscale.cloud.azure;

import io.hpcscale.scaler.cloud.PowerState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scale set's last listing, what hpcscale asked of its instances since, and whether it is time to list again.
 *
 * <p>Listing a scale set's VMs spends Compute's scarcest budget (see {@link ComputeBudget}), so a scale set is
 * listed at most once per {@code azure.minListInterval}, as cluster-autoscaler caches each scale set's VMs for
 * five minutes. The cycles in between plan from this listing with hpcscale's own calls laid over it: an instance
 * whose start Azure finished shows running, one whose start was only sent shows starting, one asked to stop or be
 * deleted shows stopping, until a listing shows what Azure made of it. A call stays laid over a fresh listing for
 * {@link #SETTLING} unless that listing already shows it took effect: a Flexible call is sent, not waited for, and
 * a listing made a moment later may not show it yet. After the scale set grew, the listing is stale until listed
 * again: the new instances are not in it.
 */
final class ScaleSetListing {
    /** How long a call may take to show in a listing. */
    static final Duration SETTLING = Duration.ofMinutes(2);

    private record Ask(PowerCall call, Instant at, boolean finished) {
    }

    private final Clock clock;
    private final Duration minInterval;
    private Map<String, AzureVm> vms;
    private Instant listedAt;
    private int pages;
    private boolean stale;
    private final Map<String, Ask> askedSince = new HashMap<>();

    ScaleSetListing(Clock clock, Duration minInterval) {
        this.clock = clock;
        this.minInterval = minInterval;
    }

    /** Whether a fresh listing is due: there is none, it is older than the interval, or the scale set grew. */
    synchronized boolean due() {
        return vms == null || stale || !clock.instant().isBefore(listedAt.plus(minInterval));
    }

    /** Whether the last listing may still be planned from while a fresh one waits for the budget. */
    synchronized boolean usable() {
        return vms != null && !stale;
    }

    /** Requests the last listing took (at least one): what the next is expected to take. */
    synchronized int pages() {
        return Math.max(1, pages);
    }

    synchronized Instant listedAt() {
        return listedAt;
    }

    /** A fresh listing: calls it shows took effect, and calls older than {@link #SETTLING}, are laid over no more. */
    synchronized void listed(List<AzureVm> listing, int pagesTaken, Instant at) {
        Map<String, AzureVm> byName = new LinkedHashMap<>();
        listing.forEach(vm -> byName.put(vm.vmName(), vm));
        vms = byName;
        pages = pagesTaken;
        listedAt = at;
        stale = false;
        askedSince.entrySet().removeIf(e -> !e.getValue().at().isAfter(at.minus(SETTLING))
                || e.getValue().call().tookEffect(byName.containsKey(e.getKey())
                        ? byName.get(e.getKey()).state() : null));
    }

    /**
     * A call Azure accepted for these VMs, by name.
     *
     * @param finished Azure said the operation succeeded (not only that it accepted it)
     */
    synchronized void asked(PowerCall call, Collection<String> vmNames, boolean finished) {
        Instant now = clock.instant();
        vmNames.forEach(name -> askedSince.put(name, new Ask(call, now, finished)));
    }

    /** The scale set has instances the listing lacks: plan from nothing until it is listed again. */
    synchronized void grew() {
        stale = true;
    }

    synchronized AzureVm vm(String vmName) {
        return vms == null ? null : vms.get(vmName);
    }

    synchronized Collection<String> names() {
        return vms == null ? List.of() : List.copyOf(vms.keySet());
    }

    /** The VMs as last listed, each with the state hpcscale's calls since then leave it in. */
    synchronized Map<AzureVm, PowerState> states() {
        Map<AzureVm, PowerState> states = new LinkedHashMap<>();
        vms.values().forEach(vm -> states.put(vm, overlaid(vm)));
        return states;
    }

    private PowerState overlaid(AzureVm vm) {
        PowerState listedState = vm.state();
        Ask asked = askedSince.get(vm.vmName());
        if (asked == null || listedState == PowerState.FAILED || listedState == PowerState.UNKNOWN) {
            return listedState;
        }
        return switch (asked.call()) {
            case START -> listedState.active() ? listedState
                    : asked.finished() ? PowerState.RUNNING : PowerState.STARTING;
            case DEALLOCATE, HIBERNATE, POWER_OFF -> listedState.active() ? PowerState.STOPPING : listedState;
            case DELETE -> PowerState.STOPPING;
        };
    }
}
