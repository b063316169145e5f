package io.hpcscale.cloud.azure.fake;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies what an accepted request does to instances, and opens the operation that reports it.
 *
 * <p>The change happens at once (transitions then run on the fake's clock); a fault outcome may limit it to some
 * instances, and a failed start or create leaves the rest deallocated with the failure code in their view.
 */
final class PowerActions {
    private final Operations operations;
    private final StandbyPools standbyPools;

    PowerActions(Operations operations, StandbyPools standbyPools) {
        this.operations = operations;
        this.standbyPools = standbyPools;
    }

    Operation apply(ScaleSet scaleSet, List<Instance> targets, PowerAction action, ArmRequest request) {
        Fault.Outcome outcome = request.outcome();
        Instant now = scaleSet.clock().instant();
        for (Instance instance : targets) {
            if (action == PowerAction.START && instance.oddity() == Instance.Oddity.DELETING) {
                // The wording is the fake's; that Azure will not start a VM it is deleting is what matters.
                throw new ArmException(409, "OperationNotAllowed", "Operation 'start' is not allowed on VM '"
                    + instance.name() + "' since the VM is marked for deletion.");
            }
        }
        if (action == PowerAction.HIBERNATE) {
            targets.forEach(instance -> refuseHibernation(instance, now));
        }
        for (Instance instance : targets) {
            if (applies(outcome, instance)) {
                switch (action) {
                    case START -> instance.start(now, scaleSet.bootDelay());
                    case DEALLOCATE -> instance.deallocate(now, scaleSet.stopDelay());
                    case HIBERNATE -> instance.hibernate(now, scaleSet.stopDelay());
                    case POWER_OFF -> instance.powerOff(now, scaleSet.stopDelay());
                    case DELETE -> scaleSet.removeInstance(instance);
                }
            } else if (action == PowerAction.START && outcome.fails()) {
                instance.fail(outcome.code(), outcome.message());
            }
        }
        return operations.begin(scaleSet.location(), outcome);
    }

    /**
     * What Azure refuses at once when asked to hibernate a VM, in its codes and words (Microsoft Learn,
     * "Troubleshooting VM hibernation", common error codes). The page gives codes and messages, not statuses:
     * 409 is the compute provider's status for OperationNotAllowed, and hpcscale reads only the code.
     */
    private static void refuseHibernation(Instance instance, Instant now) {
        if (!instance.scaleSet().hibernationEnabled()) {
            throw new ArmException(409, "OperationNotAllowed", "The Hibernate-Deallocate Operation can only be "
                + "triggered on a VM that is enabled for hibernation. Enable the property "
                + "additionalCapabilities.hibernationEnabled during VM creation, or after stopping and "
                + "deallocating the VM.");
        }
        if (instance.powerState(now) != PowerState.RUNNING) {
            throw new ArmException(409, "OperationNotAllowed", "The Hibernate-Deallocate Operation can only be "
                + "triggered on a VM that is successfully provisioned and is running.");
        }
        Instant started = instance.startedAt();
        if (started != null && now.isBefore(started.plus(instance.scaleSet().hibernationRefusedAfterStart()))) {
            throw new ArmException(409, "VMHibernateNotSupported", "The VM '" + instance.name() + "' doesn't "
                + "support hibernation. Ensure that the VM is correctly configured to support hibernation.");
        }
    }

    /** Grows with booting instances or shrinks from the newest, as a capacity PATCH or PUT does. */
    Operation resize(ScaleSet scaleSet, int capacity, ArmRequest request) {
        Fault.Outcome outcome = request.outcome();
        createOrRemove(scaleSet, capacity, outcome);
        return operations.begin(scaleSet.location(), outcome);
    }

    void createOrRemove(ScaleSet scaleSet, int capacity, Fault.Outcome outcome) {
        int current = scaleSet.capacity();
        if (capacity > current) {
            List<Instance> created = new ArrayList<>();
            for (int i = current; i < capacity; i++) {
                // A VM from the attached standby pool, if it has a ready one, boots here like a new one: the fake
                // times a start and a creation alike.
                standbyPools.handOut(scaleSet, scaleSet.clock().instant(), scaleSet.bootDelay());
                created.add(scaleSet.createInstance());
            }
            if (scaleSet.overprovisions()) {
                // A fifth more, at least one: Azure does not say how many extras it makes.
                int extras = Math.max(1, (capacity - current + 4) / 5);
                Instant goes = scaleSet.clock().instant().plus(scaleSet.bootDelay())
                    .plus(operations.overprovisionedExtrasLinger());
                for (int i = 0; i < extras; i++) {
                    Instance extra = scaleSet.createInstance();
                    extra.goesAt(goes);
                }
            }
            for (Instance instance : created) {
                if (!applies(outcome, instance) && outcome.fails()) {
                    instance.fail(outcome.code(), outcome.message());
                }
            }
        } else {
            for (Instance instance : scaleSet.newest(current - capacity)) {
                scaleSet.removeInstance(instance);
            }
        }
    }

    private static boolean applies(Fault.Outcome outcome, Instance instance) {
        return outcome == null || outcome.applyTo() == null
            || outcome.applyTo().stream().anyMatch(id -> id.equalsIgnoreCase(instance.instanceId()));
    }
}
