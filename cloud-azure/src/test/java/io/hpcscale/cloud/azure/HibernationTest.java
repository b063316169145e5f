package io.hpcscale.cloud.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.Fault;
import io.hpcscale.cloud.azure.fake.RequestKind;
import io.hpcscale.cloud.azure.fake.RequestLog;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.cloud.CallGate;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceResults;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.cloud.ThrottledException;
import io.hpcscale.scaler.pool.StopAction;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code stopAction = hibernate} through the real SDK against the fake Resource Manager, which hibernates and
 * refuses as Azure's troubleshooting page says: the node is stopped whatever Azure makes of the hibernation, and
 * hibernated where Azure can.
 */
@ExtendWith(FakeArmServer.class)
class HibernationTest {
    private static final AtomicInteger GROUPS = new AtomicInteger();

    private final FakeArm arm = FakeArmServer.arm();
    private final String rg = "rg-hibernate-" + GROUPS.incrementAndGet();
    private final TestPace pace = TestPace.startingNow();

    @AfterEach
    void clearFaults() {
        arm.faults().clear();
        arm.settings().hibernationRefusedAfterStart(Duration.ofMinutes(2));
    }

    private CloudProvider provider(String scaleSet) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("pool.p.provider", "azure");
        values.put("pool.p.max", "10");
        values.put("pool.p.stopAction", "hibernate");
        values.put("pool.p.azure.resourceGroup", rg);
        values.put("pool.p.azure.scaleSet", scaleSet);
        Settings settings = FakeArmServer.settings(values);
        return new AzureProviders(new AzureClients(AzureSettings.from(settings), null, pace),
                CallGate.ALWAYS_OPEN, false).forPool(settings.pool("p"));
    }

    private void flexible(boolean hibernationEnabled, int running) {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.flexible(rg, "fx").sku("Standard_D4s_v5").hibernationEnabled(hibernationEnabled)
                .instances(running, io.hpcscale.cloud.azure.fake.PowerState.RUNNING));
    }

    /** A fresh listing: the test reads what Azure made of each call. */
    private List<Instance> listed(CloudProvider provider) throws Exception {
        pace.pastListInterval();
        return provider.list();
    }

    private io.hpcscale.cloud.azure.fake.Instance inAzure(String scaleSet, String id) {
        return arm.state().instance(rg, scaleSet, id);
    }

    private List<RequestLog.Entry> deallocates() {
        return arm.log().entries(RequestKind.DEALLOCATE).stream()
                .filter(e -> e.path().toLowerCase().contains("/resourcegroups/" + rg.toLowerCase())).toList();
    }

    private static boolean asksToHibernate(RequestLog.Entry e) {
        return e.query() != null && e.query().contains("hibernate=true");
    }

    @Test
    void aFlexibleVmWithHibernationEnabledIsHibernatedAndResumedByAPlainStart() throws Exception {
        flexible(true, 2);
        CloudProvider provider = provider("fx");
        List<Instance> instances = provider.list();

        InstanceResults stopped = provider.stop(instances.subList(0, 1), StopAction.HIBERNATE);

        assertTrue(stopped.failed().isEmpty(), stopped.failed().toString());
        String id = instances.get(0).id();
        assertTrue(inAzure("fx", id).hibernated(), "Azure hibernated it");
        assertFalse(inAzure("fx", instances.get(1).id()).hibernated(), "the other was not asked");
        assertEquals(1, deallocates().size());
        assertTrue(asksToHibernate(deallocates().get(0)), deallocates().toString());
        Instance hibernated = listed(provider).stream().filter(i -> i.id().equals(id)).findFirst().orElseThrow();
        assertEquals(PowerState.STOPPED, hibernated.state(), "a hibernated VM is a stopped instance to the scaler");
        assertTrue(hibernated.hibernated(), "read from HibernationState/Hibernated, so the scaler resumes it first");

        provider.start(listed(provider).stream().filter(i -> i.id().equals(id)).toList());

        assertFalse(inAzure("fx", id).hibernated(), "started: no longer hibernated");
        assertFalse(listed(provider).stream().anyMatch(Instance::hibernated), "running VMs are not hibernated");
        assertEquals(io.hpcscale.cloud.azure.fake.PowerState.RUNNING, inAzure("fx", id).powerState());
    }

    @Test
    void aVmAzureWillNotHibernateIsDeallocatedInstead() throws Exception {
        flexible(false, 1);
        CloudProvider provider = provider("fx");
        List<Instance> instances = provider.list();

        InstanceResults stopped = provider.stop(instances, StopAction.HIBERNATE);

        assertTrue(stopped.failed().isEmpty(), "refused hibernation is not a failed stop: " + stopped.failed());
        assertTrue(stopped.unfinished().get(instances.get(0)).startsWith("deallocated, not hibernated: Azure would not "
                + "hibernate it (OperationNotAllowed)"), "the stop's event says so: " + stopped.unfinished());
        io.hpcscale.cloud.azure.fake.Instance vm = inAzure("fx", instances.get(0).id());
        assertEquals(io.hpcscale.cloud.azure.fake.PowerState.DEALLOCATED, vm.powerState());
        assertFalse(vm.hibernated());
        assertEquals(2, deallocates().size(), "asked to hibernate, refused, then deallocated: " + deallocates());
        assertEquals(409, deallocates().get(0).status());
        assertTrue(asksToHibernate(deallocates().get(0)));
        assertFalse(asksToHibernate(deallocates().get(1)));
    }

    @Test
    void aVmStartedAMomentAgoIsDeallocatedRatherThanLeftRunning() throws Exception {
        flexible(true, 0);
        arm.scaleSet(ScaleSetSpec.flexible(rg, "fy").sku("Standard_D4s_v5").hibernationEnabled(true)
                .instances(1, io.hpcscale.cloud.azure.fake.PowerState.DEALLOCATED));
        CloudProvider provider = provider("fy");
        provider.start(listed(provider));
        List<Instance> running = listed(provider);
        assertEquals(PowerState.RUNNING, running.get(0).state());

        InstanceResults stopped = provider.stop(running, StopAction.HIBERNATE);

        assertTrue(stopped.failed().isEmpty(), stopped.failed().toString());
        io.hpcscale.cloud.azure.fake.Instance vm = inAzure("fy", running.get(0).id());
        assertEquals(io.hpcscale.cloud.azure.fake.PowerState.DEALLOCATED, vm.powerState(),
                "VMHibernateNotSupported right after a boot: deallocated");
        assertFalse(vm.hibernated());

        arm.settings().hibernationRefusedAfterStart(Duration.ZERO);
        provider.start(listed(provider));
        provider.stop(listed(provider), StopAction.HIBERNATE);
        assertTrue(vm.hibernated(), "once the VM has run a while it hibernates");
    }

    /**
     * The one VM of scale set fx is sent a hibernation that Azure accepts and then fails: "Hibernating the VM failed
     * due to an internal error. Retry later" (Microsoft Learn, "Troubleshooting VM hibernation"), so it still runs.
     */
    private List<Instance> hibernationAcceptedThenFailed(CloudProvider provider) throws Exception {
        List<Instance> instances = provider.list();
        arm.faults().inject("POST", "/virtualMachines/[^/]+/deallocate$", 1, Fault.operationFails(
                "VMHibernateFailed"));
        provider.stop(instances, StopAction.HIBERNATE);
        return instances;
    }

    @Test
    void aHibernationAcceptedThenFailedIsNotAskedForAgainButDeallocated() throws Exception {
        flexible(true, 1);
        CloudProvider provider = provider("fx");
        List<Instance> instances = hibernationAcceptedThenFailed(provider);
        io.hpcscale.cloud.azure.fake.Instance vm = inAzure("fx", instances.get(0).id());
        assertEquals(io.hpcscale.cloud.azure.fake.PowerState.RUNNING, vm.powerState(), "the hibernation failed");

        InstanceResults second = provider.stop(instances, StopAction.HIBERNATE);

        assertEquals(io.hpcscale.cloud.azure.fake.PowerState.DEALLOCATED, vm.powerState());
        assertFalse(vm.hibernated());
        assertEquals(2, deallocates().size());
        assertTrue(asksToHibernate(deallocates().get(0)));
        assertFalse(asksToHibernate(deallocates().get(1)), "the second stop deallocates: " + deallocates());
        assertTrue(second.unfinished().values().iterator().next().contains("did not take"), second.unfinished()
                .toString());
    }

    @Test
    void aHibernationTheFabricFailedAtOnceIsDeallocatedInstead() throws Exception {
        flexible(true, 1);
        CloudProvider provider = provider("fx");
        List<Instance> instances = provider.list();
        // The page gives the code and words, not the status: hpcscale reads the code.
        arm.faults().inject("POST", "/virtualMachines/[^/]+/deallocate$", 1, Fault.error(409, "VMHibernateFailed",
                "Hibernating the VM '" + instances.get(0).id() + "' failed due to an internal error. Retry later."));

        InstanceResults stopped = provider.stop(instances, StopAction.HIBERNATE);

        assertTrue(stopped.failed().isEmpty(), stopped.failed().toString());
        assertEquals(io.hpcscale.cloud.azure.fake.PowerState.DEALLOCATED, inAzure("fx", instances.get(0).id())
                .powerState());
        assertEquals(2, deallocates().size());
        assertFalse(asksToHibernate(deallocates().get(1)));
    }

    @Test
    void aHibernationSentLongAgoSaysNothingOfTheNextStop() throws Exception {
        flexible(true, 1);
        CloudProvider provider = provider("fx");
        List<Instance> instances = hibernationAcceptedThenFailed(provider);
        pace.mutableClock().advance(Hibernation.REMEMBERED.plusMinutes(1));

        provider.stop(instances, StopAction.HIBERNATE);

        assertEquals(2, deallocates().size());
        assertTrue(deallocates().stream().allMatch(HibernationTest::asksToHibernate), deallocates().toString());
        assertTrue(inAzure("fx", instances.get(0).id()).hibernated());
    }

    @Test
    void aThrottledHibernationIsAThrottledStopNotARefusalToDeallocateAtOnce() throws Exception {
        flexible(true, 1);
        CloudProvider provider = provider("fx");
        List<Instance> instances = provider.list();
        // Compute's 429: top code OperationNotAllowed, as a refusal's, with a TooManyRequests detail.
        arm.faults().inject("POST", "/virtualMachines/[^/]+/deallocate$", 1, Fault.tooManyRequests(60));

        InstanceResults stopped = provider.stop(instances, StopAction.HIBERNATE);

        assertEquals(1, stopped.failed().size());
        assertTrue(stopped.failed().values().iterator().next() instanceof ThrottledException,
                stopped.failed().toString());
        assertEquals(1, deallocates().size(), "no second call into the throttle: " + deallocates());
        assertEquals(io.hpcscale.cloud.azure.fake.PowerState.RUNNING, inAzure("fx", instances.get(0).id())
                .powerState());
    }

    @Test
    void aResumeAzureCannotPlaceIsThatInstancesFailureNotThePoolsCapacity() throws Exception {
        flexible(true, 1);
        CloudProvider provider = provider("fx");
        List<Instance> instances = provider.list();
        provider.stop(instances, StopAction.HIBERNATE);
        arm.faults().inject("POST", "/virtualMachines/[^/]+/start$", 1, Fault.operationFails(
                "OverconstrainedResumeFromHibernatedStateAllocationRequest"));

        provider.start(listed(provider));
        pace.mutableClock().advance(ScaleSetListing.SETTLING);

        Instance failed = listed(provider).get(0);
        assertEquals(PowerState.STOPPED, failed.state(), failed.toString());
        assertEquals("OverconstrainedResumeFromHibernatedStateAllocationRequest", failed.failure().code(),
                failed.toString());
        assertFalse(failed.failure().capacity(), "the hibernated VM's own constraints: the pool does not back off");
    }

    @Test
    void aUniformScaleSetIsDeallocatedForAzureHibernatesOnlyFlexibleOnes() throws Exception {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(2, io.hpcscale.cloud.azure.fake.PowerState.RUNNING));
        CloudProvider provider = provider("hb");

        InstanceResults stopped = provider.stop(listed(provider), StopAction.HIBERNATE);

        assertEquals(2, stopped.done().size());
        List<RequestLog.Entry> calls = deallocates();
        assertEquals(1, calls.size(), "one batch, as for any Uniform stop");
        assertFalse(asksToHibernate(calls.get(0)), calls.toString());
        assertEquals(io.hpcscale.cloud.azure.fake.PowerState.DEALLOCATED, inAzure("hb", "0").powerState());
    }
}
