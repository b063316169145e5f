package io.hpcscale.cloud.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.cloud.AccessDeniedException;
import io.hpcscale.scaler.cloud.CallGate;
import io.hpcscale.scaler.cloud.CapacityException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.CreateResult;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceResults;
import io.hpcscale.scaler.cloud.NotFoundException;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.cloud.QuotaException;
import io.hpcscale.scaler.cloud.ThrottledException;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.Fault;
import io.hpcscale.cloud.azure.fake.RequestKind;
import io.hpcscale.cloud.azure.fake.RequestLog;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.pool.VmShape;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The azure provider through the real management SDK and the production credential against the fake Resource
 * Manager: the requests it sends, what it reads back, and how each of Azure's errors reaches the scaler.
 */
@ExtendWith(FakeArmServer.class)
class AzureScaleSetProviderTest {
    private static final AtomicInteger GROUPS = new AtomicInteger();

    private final FakeArm arm = FakeArmServer.arm();
    private final String rg = "rg-provider-" + GROUPS.incrementAndGet();
    private final TestPace pace = TestPace.startingNow();

    @AfterEach
    void clearFaults() {
        arm.faults().clear();
        arm.permissions().reset();
        arm.settings().operationDuration(Duration.ZERO);
    }

    private CloudProvider provider(String scaleSet, Map<String, String> poolSettings) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("pool.p.provider", "azure");
        values.put("pool.p.max", "100");
        values.put("pool.p.azure.resourceGroup", rg);
        values.put("pool.p.azure.scaleSet", scaleSet);
        poolSettings.forEach((k, v) -> values.put("pool.p." + k, v));
        Settings settings = FakeArmServer.settings(values);
        return new AzureProviders(clients(settings), CallGate.ALWAYS_OPEN, false).forPool(settings.pool("p"));
    }

    /** Clients on this test's pace, trusting the fake's certificate as the JVM does. */
    private AzureClients clients(Settings settings) {
        return new AzureClients(AzureSettings.from(settings), null, pace);
    }

    private CloudProvider provider(String scaleSet) {
        return provider(scaleSet, Map.of());
    }

    private void group() {
        arm.resourceGroup(rg, "westeurope", Map.of());
    }

    /** Requests to this test's resource group, of this kind. */
    private int requests(RequestKind kind) {
        return arm.log().count(e -> e.kind() == kind && inGroup().test(e));
    }

    private Predicate<RequestLog.Entry> inGroup() {
        return e -> e.path().toLowerCase().contains("/resourcegroups/" + rg.toLowerCase());
    }

    private static Instance byId(List<Instance> instances, String id) {
        return instances.stream().filter(i -> i.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void listsEveryUniformInstanceWithItsPowerStateInOnePagedCall() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").computerNamePrefix("pinta007y").instances(120,
                io.hpcscale.cloud.azure.fake.PowerState.DEALLOCATED));
        arm.state().setPowerState(rg, "hb", "1", io.hpcscale.cloud.azure.fake.PowerState.RUNNING);
        CloudProvider provider = provider("hb");

        List<Instance> instances = provider.list();

        assertEquals(120, instances.size());
        Instance running = byId(instances, "hb_1");
        assertEquals(PowerState.RUNNING, running.state());
        assertEquals("pinta007y000001", running.nodeName().toLowerCase(), "the computer name: prefix + base 36");
        assertEquals(PowerState.STOPPED, byId(instances, "hb_0").state());
        assertEquals(3, requests(RequestKind.LIST), "120 instances in pages of 50, with instance view");
        assertEquals(0, requests(RequestKind.GET_INSTANCE), "never one GET per instance");
        assertEquals(1, requests(RequestKind.GET), "the scale set is read once, for its mode");
        provider.list();
        assertEquals(3, requests(RequestKind.LIST), "within azure.minListInterval the last listing serves");
        pace.pastListInterval();
        provider.list();
        assertEquals(1, requests(RequestKind.GET));
        assertEquals(6, requests(RequestKind.LIST));
    }

    @Test
    void startsAndDeallocatesManyUniformInstancesInOneCallEach() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(6,
                io.hpcscale.cloud.azure.fake.PowerState.DEALLOCATED));
        CloudProvider provider = provider("hb");
        List<Instance> stopped = provider.list().subList(0, 3);

        InstanceResults started = provider.start(stopped);

        assertEquals(stopped, started.done());
        assertEquals(1, requests(RequestKind.START));
        String body = arm.log().entries(RequestKind.START).stream().filter(inGroup()).findFirst().orElseThrow()
                .body();
        assertTrue(body.contains("\"instanceIds\":[\"0\",\"1\",\"2\"]"), body);
        List<Instance> now = provider.list();
        assertTrue(now.subList(0, 3).stream().allMatch(i -> i.state().active()), now.toString());
        assertTrue(now.subList(3, 6).stream().noneMatch(i -> i.state().active()), now.toString());

        InstanceResults stoppedAgain = provider.stop(now.subList(0, 3), StopAction.DEALLOCATE);

        assertEquals(3, stoppedAgain.done().size());
        assertEquals(1, requests(RequestKind.DEALLOCATE));
        assertTrue(provider.list().stream().noneMatch(i -> i.state().active()));
    }

    @Test
    void drivesAFlexibleScaleSetThroughItsVmsAndListsThemInOneFilteredCall() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.flexible(rg, "fx").sku("Standard_D4s_v5").instances(5,
                io.hpcscale.cloud.azure.fake.PowerState.DEALLOCATED));
        CloudProvider provider = provider("fx");

        List<Instance> instances = provider.list();

        assertEquals(5, instances.size());
        assertTrue(instances.stream().allMatch(i -> i.id().startsWith("fx_")), instances.toString());
        assertEquals(1, requests(RequestKind.LIST));
        RequestLog.Entry listing = arm.log().entries(RequestKind.LIST).stream().filter(inGroup()).findFirst()
                .orElseThrow();
        assertTrue(listing.path().endsWith("/providers/Microsoft.Compute/virtualMachines"), listing.toString());
        assertTrue(listing.query().contains("expand=instanceView"), listing.toString());

        int pollsBefore = arm.log().count(RequestKind.OPERATION_POLL);
        InstanceResults started = provider.start(instances.subList(0, 3));
        assertEquals(pollsBefore, arm.log().count(RequestKind.OPERATION_POLL), "no operation polled");
        assertEquals(3, started.unfinished().size(), "sent, not waited for: the next listing confirms them");
        assertTrue(started.unfinished().values().stream().allMatch(FlexibleDriver.SENT::equals));
        assertEquals(3, requests(RequestKind.START), "one start per VM");
        assertEquals(3, provider.list().stream().filter(i -> i.state().active()).count(),
                "shown starting from what was sent");
        pace.pastListInterval();
        assertEquals(3, provider.list().stream().filter(i -> i.state().active()).count(), "confirmed by Azure");

        List<Instance> toDelete = provider.list().stream().filter(i -> !i.state().active()).toList();
        assertEquals(2, provider.stop(toDelete, StopAction.DELETE).done().size());
        assertEquals(1, requests(RequestKind.DELETE), "deleted through the scale set in one call");
        pace.pastListInterval();
        assertEquals(3, provider.list().size());
    }

    @Test
    void deletesExactlyTheInstancesItIsGiven() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(5,
                io.hpcscale.cloud.azure.fake.PowerState.RUNNING));
        CloudProvider provider = provider("hb");
        List<Instance> all = provider.list();

        provider.stop(List.of(all.get(1), all.get(3)), StopAction.DELETE);
        pace.pastListInterval();

        assertEquals(List.of("hb_0", "hb_2", "hb_4"), provider.list().stream().map(Instance::id).toList(),
                "not the newest, as lowering the capacity would have removed");
        assertEquals(3, arm.state().scaleSet(rg, "hb").orElseThrow().capacity());
    }

    @Test
    void growsWithTheSmallestCapacityPatchAndReportsTheInstancesItAdded() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(2,
                io.hpcscale.cloud.azure.fake.PowerState.RUNNING));
        CloudProvider provider = provider("hb", Map.of("azure.allowCreate", "true"));
        assertTrue(provider.canCreate());
        provider.list();

        CreateResult result = provider.create(3);

        assertNull(result.failure());
        assertEquals(List.of("hb_2", "hb_3", "hb_4"), result.created().stream().map(Instance::id).toList());
        assertEquals(1, requests(RequestKind.PATCH_CAPACITY));
        assertEquals(0, requests(RequestKind.PATCH), "nothing but the capacity is sent");
        assertEquals(5, arm.state().scaleSet(rg, "hb").orElseThrow().capacity());
        assertFalse(provider("hb").canCreate(), "growth is off unless allowed");
    }

    @Test
    void readsThePoolsShapeFromTheVmSizeOncePerRegion() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(1,
                io.hpcscale.cloud.azure.fake.PowerState.RUNNING));
        arm.scaleSet(ScaleSetSpec.uniform(rg, "gpu").sku("Standard_ND96asr_v4").instances(1,
                io.hpcscale.cloud.azure.fake.PowerState.RUNNING));
        Map<String, String> values = new LinkedHashMap<>();
        for (String pool : List.of("hb", "gpu")) {
            values.put("pool." + pool + ".provider", "azure");
            values.put("pool." + pool + ".max", "10");
            values.put("pool." + pool + ".azure.resourceGroup", rg);
            values.put("pool." + pool + ".azure.scaleSet", pool);
        }
        Settings settings = FakeArmServer.settings(values);
        AzureProviders providers = new AzureProviders(new AzureClients(AzureSettings.from(settings)),
                CallGate.ALWAYS_OPEN, false);
        int skusBefore = arm.log().count(RequestKind.SKUS);

        VmShape hb = providers.forPool(settings.pool("hb")).vmShape().orElseThrow();
        VmShape gpu = providers.forPool(settings.pool("gpu")).vmShape().orElseThrow();

        assertEquals(new VmShape(120, (long) Math.floor(448 * 1024 * 0.95), 0), hb);
        assertEquals(8, gpu.gpus());
        assertEquals(96, gpu.cpus());
        assertEquals(1, arm.log().count(RequestKind.SKUS) - skusBefore, "one SKU listing for the region");
    }

    @Test
    void tellsConstraintsWhatItsNodesAreOnceListedAndUnknownIsNullNotFalse() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(1, io.hpcscale.cloud.azure.fake.PowerState.RUNNING));
        arm.scaleSet(ScaleSetSpec.uniform(rg, "d4").sku("Standard_D4s_v5").singlePlacementGroup(false)
                .instances(1, io.hpcscale.cloud.azure.fake.PowerState.RUNNING));
        CloudProvider hb = provider("hb");
        assertEquals(Map.of(), hb.nodeFacts(), "nothing is known before the scale set is read");

        hb.list();
        Map<String, Object> facts = hb.nodeFacts();
        assertEquals("Standard_HB120rs_v3", facts.get("vm_size"));
        assertEquals("standardHBrsv3Family", facts.get("vm_family"));
        assertEquals(120L, facts.get("pcpu_count"), "vCPUsPerCore 1");
        assertEquals(true, facts.get("infiniband"));
        assertEquals(false, facts.get("spot"));
        assertEquals("hb", facts.get("placement_group"), "a Uniform scale set is one placement group");

        CloudProvider d4 = provider("d4");
        // An identity without Microsoft.Compute/skus/read, as ARM refuses it (AuthorizationFailed, 403).
        arm.faults().inject("GET", "/providers/Microsoft.Compute/skus$", 5, Fault.error(403, "AuthorizationFailed",
                "The client does not have authorization to perform action 'Microsoft.Compute/skus/read' over scope "
                        + "'/subscriptions/00000000-0000-0000-0000-000000000000' or the scope is invalid."));
        d4.list();
        Map<String, Object> unknown = d4.nodeFacts();
        assertTrue(unknown.containsKey("infiniband") && unknown.get("infiniband") == null,
                "the SKUs could not be read: InfiniBand is unknown, not false: " + unknown);
        assertEquals(null, unknown.get("placement_group"));
    }

    @Test
    void aLongThrottleEndsTheCallAtOnceAndSaysWhenToComeBack() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(2,
                io.hpcscale.cloud.azure.fake.PowerState.RUNNING));
        CloudProvider provider = provider("hb");
        provider.list();
        pace.pastListInterval();
        arm.faults().inject("GET", rg + "/providers/Microsoft.Compute/virtualMachineScaleSets/hb/virtualMachines$",
                1, Fault.tooManyRequests(120));

        ThrottledException e = assertThrows(ThrottledException.class, provider::list);

        assertEquals(Duration.ofSeconds(120), e.retryAfter());
        assertTrue(e.getMessage().contains("throttles"), e.getMessage());
        assertTrue(e.getMessage().contains("Compute budget HighCostGetVMScaleSet30Min, spent until "),
                "names the bucket and when it ends: " + e.getMessage());
        assertEquals(2, requests(RequestKind.LIST), "not retried inside the call: the scaler waits it out");
    }

    @Test
    void aShortThrottleIsRetriedInsideTheCall() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(2,
                io.hpcscale.cloud.azure.fake.PowerState.RUNNING));
        CloudProvider provider = provider("hb");
        provider.list();
        pace.pastListInterval();
        arm.faults().inject("GET", rg + "/providers/Microsoft.Compute/virtualMachineScaleSets/hb/virtualMachines$",
                1, Fault.tooManyRequests(1));

        assertEquals(2, provider.list().size());
        assertEquals(3, requests(RequestKind.LIST));
    }

    @Test
    void anAllocationFailureIsACapacityErrorAndWhatDidStartIsDone() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(4,
                io.hpcscale.cloud.azure.fake.PowerState.DEALLOCATED));
        CloudProvider provider = provider("hb");
        List<Instance> instances = provider.list();
        arm.faults().inject("POST", "/virtualMachineScaleSets/hb/start$", 1,
                Fault.operationPartlyFails("AllocationFailed", "1"));

        InstanceResults results = provider.start(instances);

        assertEquals(List.of("hb_1"), results.done().stream().map(Instance::id).toList(),
                "read back: instance 1 did start");
        assertEquals(3, results.failed().size());
        CloudException failure = results.failed().values().iterator().next();
        assertInstanceOf(CapacityException.class, failure, failure.getMessage());
        assertTrue(failure.getMessage().contains("AllocationFailed"), failure.getMessage());
    }

    @Test
    void aQuotaRefusalSaysHowManyInstancesStillFit() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(4,
                io.hpcscale.cloud.azure.fake.PowerState.DEALLOCATED));
        CloudProvider provider = provider("hb");
        provider.vmShape();
        List<Instance> instances = provider.list();
        arm.faults().inject("POST", "/virtualMachineScaleSets/hb/start$", 1,
                Fault.quotaExceeded("standardHBrsv3Family", "westeurope", 480, 240, 480));

        InstanceResults results = provider.start(instances);

        QuotaException quota = assertInstanceOf(QuotaException.class, results.failed().get(instances.get(0)));
        assertEquals(2, quota.instancesThatFit().orElseThrow(), "240 free vCPUs hold two 120-vCPU instances");
        assertTrue(quota.getMessage().contains("quota"), quota.getMessage());
    }

    @Test
    void aMissingScaleSetIsNotFoundAndNamesTheSettingsToCheck() {
        group();
        CloudException e = assertThrows(NotFoundException.class, () -> provider("nope").list());
        assertTrue(e.getMessage().contains("azure.scaleSet"), e.getMessage());
        assertTrue(e.getMessage().contains("nope"), e.getMessage());
    }

    @Test
    void aRefusedPermissionNamesTheActionAndTheRoleToGrant() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(2,
                io.hpcscale.cloud.azure.fake.PowerState.DEALLOCATED));
        CloudProvider provider = provider("hb");
        List<Instance> instances = provider.list();
        arm.permissions().allowOnly("Microsoft.Compute/*/read");

        InstanceResults results = provider.start(instances);

        CloudException e = assertInstanceOf(AccessDeniedException.class, results.failed().get(instances.get(0)));
        assertTrue(e.getMessage().contains("Microsoft.Compute/virtualMachineScaleSets/start/action"), e.getMessage());
        assertTrue(e.getMessage().contains("docs/security.md"), e.getMessage());
    }

    @Test
    void anOperationOutlastingItsBoundIsUnfinishedNotFailed() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(2,
                io.hpcscale.cloud.azure.fake.PowerState.RUNNING));
        Map<String, String> values = new LinkedHashMap<>();
        values.put("pool.p.provider", "azure");
        values.put("pool.p.max", "10");
        values.put("pool.p.azure.resourceGroup", rg);
        values.put("pool.p.azure.scaleSet", "hb");
        values.put("azure.operationTimeout", "2s");
        Settings settings = FakeArmServer.settings(values);
        CloudProvider provider = new AzureProviders(clients(settings), CallGate.ALWAYS_OPEN, false)
                .forPool(settings.pool("p"));
        List<Instance> instances = provider.list();
        arm.faults().inject("POST", "/virtualMachineScaleSets/hb/deallocate$", 1,
                Fault.slowOperation(Duration.ofMinutes(5)));

        long begin = System.nanoTime();
        InstanceResults results = provider.stop(instances, StopAction.DEALLOCATE);

        assertTrue(Duration.ofNanos(System.nanoTime() - begin).toSeconds() < 10, "bounded by the timeout");
        assertTrue(results.failed().isEmpty());
        assertEquals(2, results.unfinished().size());
        assertTrue(results.unfinished().get(instances.get(0)).contains("azure.operationTimeout"));
    }

    @Test
    void aClosedGateCallsNoFurtherVmAndLeavesTheOneInFlightToAzure() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.flexible(rg, "fx").sku("Standard_D4s_v5").instances(3,
                io.hpcscale.cloud.azure.fake.PowerState.RUNNING));
        Map<String, String> values = new LinkedHashMap<>();
        values.put("pool.p.provider", "azure");
        values.put("pool.p.max", "10");
        values.put("pool.p.azure.resourceGroup", rg);
        values.put("pool.p.azure.scaleSet", "fx");
        values.put("azure.flexibleParallelism", "1");
        Settings settings = FakeArmServer.settings(values);
        String[] closed = {null};
        CloudProvider provider = new AzureProviders(clients(settings), () -> closed[0], false).forPool(settings.pool("p"));
        List<Instance> instances = provider.list();
        arm.faults().inject("POST", "/virtualMachines/[^/]+/deallocate$", 1, Fault.hang(Duration.ofSeconds(3)));
        Thread shutdown = new Thread(() -> {
            try {
                Thread.sleep(1500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            closed[0] = "the scaler is shutting down";
        });
        shutdown.start();

        InstanceResults results = provider.stop(instances, StopAction.DEALLOCATE);
        shutdown.join();

        assertEquals(1, results.unfinished().size(), "the call in flight was left to Azure");
        assertEquals(2, results.failed().size(), "the others were never called");
        assertTrue(results.failed().values().iterator().next().getMessage().contains("shutting down"));
        assertEquals(1, requests(RequestKind.DEALLOCATE));
    }

    @Test
    void namesNodesByTagOrTemplateWhenAsked() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instanceTag("slurm-node", "cn-a").instances(1,
                io.hpcscale.cloud.azure.fake.PowerState.RUNNING));
        assertEquals("cn-a", provider("hb", Map.of("azure.nodeName", "tag:slurm-node")).list().get(0).nodeName());
        assertEquals("node-0", provider("hb", Map.of("azure.nodeName", "node-{instanceId}")).list().get(0)
                .nodeName());
        assertEquals("hb_0", provider("hb", Map.of("azure.nodeName", "vmName")).list().get(0).nodeName());
    }

    @Test
    void theTokenComesFromTheManagedIdentityEndpointAndNoSecretIsConfigured() throws Exception {
        group();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(1,
                io.hpcscale.cloud.azure.fake.PowerState.RUNNING));
        provider("hb").list();
        assertTrue(arm.log().count(RequestKind.TOKEN) >= 1, "the credential asked the identity endpoint");
        assertTrue(arm.log().entries().stream().filter(inGroup()).allMatch(e -> e.status() != 401),
                "every request carried a token the fake issued");
    }
}
