package io.hpcscale.cloud.azure;

import com.azure.core.util.Context;
import com.azure.resourcemanager.compute.fluent.VirtualMachinesClient;
import io.hpcscale.scaler.cloud.CallGate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hibernates a Flexible scale set's VMs ({@code deallocate?hibernate=true}), and stops the ones Azure will not
 * hibernate anyway: the node is idle and drained either way, and only its next start is a boot rather than a resume.
 *
 * <p>Azure refuses at once a VM without hibernation enabled, one whose hibernation extension failed, one that is not
 * running ({@code OperationNotAllowed}), one that booted a moment ago ({@code VMHibernateNotSupported}) and one its
 * fabric failed ({@code VMHibernateFailed}) (Microsoft Learn, "Troubleshooting VM hibernation", common error codes):
 * those are deallocated at once. A throttled call is no refusal, though Compute's 429 has the same top code: it
 * fails, and the scaler holds the subscription's pools back. A hibernation accepted and then failed ({@code
 * VMHibernateFailed} in its operation) leaves the VM running: one asked to stop again within {@link #REMEMBERED} of
 * a hibernation sent to it is deallocated, not asked to hibernate again and again.
 */
final class Hibernation {
    /** How long a hibernation sent is remembered: past a listing's settling time and the stop it leads to. */
    static final Duration REMEMBERED = Duration.ofMinutes(30);

    private static final Logger log = LoggerFactory.getLogger(Hibernation.class);
    private static final Set<String> REFUSALS = Set.of("operationnotallowed", "vmhibernatenotsupported",
            "vmhibernatefailed");

    private final AzurePoolSettings pool;
    private final Clock clock;
    private final CallGate gate;
    /** When each VM was last sent a hibernation, until it is started or {@link #REMEMBERED} passes. */
    private final Map<String, Instant> sent = new ConcurrentHashMap<>();

    Hibernation(AzurePoolSettings pool, Clock clock, CallGate gate) {
        this.pool = pool;
        this.clock = clock;
        this.gate = gate;
    }

    /** The VM was asked to start: a hibernation sent before says nothing of its next stop. */
    void started(String vmName) {
        sent.remove(vmName);
    }

    /**
     * Sends the VM's hibernation, or its deallocation where a hibernation was refused or did not take.
     *
     * @return what was sent, for the stop's event: {@link FlexibleDriver#SENT}, or why a deallocation went instead
     */
    String stop(VirtualMachinesClient machines, String vmName) {
        Instant now = clock.instant();
        sent.values().removeIf(at -> at.isBefore(now.minus(REMEMBERED)));
        String rg = pool.resourceGroup();
        Instant before = sent.remove(vmName);
        if (before != null) {
            log.warn("pool {}: VM {} is still running after a hibernation was sent to it at {}: deallocated instead "
                    + "(its activity log says why the hibernation failed)", pool.pool(), vmName, before);
            machines.beginDeallocate(rg, vmName, null, Context.NONE);
            return "deallocated, not hibernated: a hibernation sent at " + before + " did not take; "
                    + FlexibleDriver.SENT;
        }
        try {
            machines.beginDeallocate(rg, vmName, true, Context.NONE);
            sent.put(vmName, now);
            return FlexibleDriver.SENT;
        } catch (RuntimeException e) {
            String code = ArmErrors.code(e);
            if (code == null || !REFUSALS.contains(code.toLowerCase(Locale.ROOT)) || ArmErrors.throttled(e)) {
                throw e;
            }
            String closed = gate.closedBecause();
            if (closed != null) {
                throw new FlexibleDriver.NotCalled("Azure would not hibernate it (" + code + "), and it was not "
                        + "deallocated instead: " + closed);
            }
            log.warn("pool {}: Azure would not hibernate VM {} ({}: {}): deallocated instead; its next start is a "
                    + "boot, not a resume (docs/running-on-azure.md, Hibernation)", pool.pool(), vmName, code,
                    e.getMessage());
            machines.beginDeallocate(rg, vmName, null, Context.NONE);
            return "deallocated, not hibernated: Azure would not hibernate it (" + code + "); " + FlexibleDriver.SENT;
        }
    }
}
