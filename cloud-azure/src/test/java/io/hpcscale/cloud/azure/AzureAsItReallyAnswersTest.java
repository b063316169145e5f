package io.hpcscale.cloud.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.cloud.CallGate;
import io.hpcscale.scaler.cloud.CapacityException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceResults;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.cloud.azure.fake.ComputeBuckets;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.Fault;
import io.hpcscale.cloud.azure.fake.MutableClock;
import io.hpcscale.cloud.azure.fake.RequestKind;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The provider against the fake Resource Manager answering as Azure really does
 * (../shared/notes/azure-as-it-really-behaves.md): paged Flexible listings with a raw next link, no Retry-After on
 * operations, Compute's throttling buckets, the states only a real listing shows, capacity codes nested in error
 * details, and a VM size the subscription may not use. The fake and the provider keep one settable clock, so a
 * half hour of listings and polls passes in no real time. Each test was seen failing against the provider as it
 * was before these behaviours were imitated (see the closing note of issue 20).
 */
@ExtendWith(FakeArmServer.class)
class AzureAsItReallyAnswersTest {
    private static final AtomicInteger GROUPS = new AtomicInteger();
    private static final io.hpcscale.cloud.azure.fake.PowerState DEALLOCATED =
            io.hpcscale.cloud.azure.fake.PowerState.DEALLOCATED;
    private static final io.hpcscale.cloud.azure.fake.PowerState RUNNING =
            io.hpcscale.cloud.azure.fake.PowerState.RUNNING;

    private final FakeArm arm = FakeArmServer.arm();
    private final String rg = "rg-real-" + GROUPS.incrementAndGet();
    private PacedFakeArm paced;
    private MutableClock clock;
    private TestPace pace;

    @BeforeEach
    void oneClock() {
        paced = new PacedFakeArm(arm, rg);
        clock = paced.clock();
        pace = paced.pace();
    }

    @AfterEach
    void restoreTheSharedFake() {
        paced.close();
    }

    private CloudProvider provider(String scaleSet, String... more) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("pool.p.provider", "azure");
        values.put("pool.p.max", "2000");
        values.put("pool.p.azure.resourceGroup", rg);
        values.put("pool.p.azure.scaleSet", scaleSet);
        values.put("azure.operationTimeout", "10m");
        for (int i = 0; i + 1 < more.length; i += 2) {
            values.put(more[i], more[i + 1]);
        }
        Settings settings = FakeArmServer.settings(values);
        return new AzureProviders(new AzureClients(AzureSettings.from(settings), null, pace), CallGate.ALWAYS_OPEN, false)
                .forPool(settings.pool("p"));
    }

    private int lists() {
        return arm.log().count(e -> e.kind() == RequestKind.LIST && e.path().contains("/resourceGroups/" + rg + "/"));
    }

    /** Throttled answers to this test's requests. */
    private int throttled() {
        return (int) paced.requests().stream().filter(e -> e.status() == 429).count();
    }

    private static Instance byId(List<Instance> instances, String id) {
        return instances.stream().filter(i -> i.id().equals(id)).findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "next link encoded: {0}")
    @ValueSource(booleans = {false, true})
    void aFlexiblePoolOf120VmsIsListedCompletelyWhicheverWayTheNextLinkComes(boolean encoded) throws Exception {
        arm.settings().flexibleNextLinkEncoded(encoded);
        arm.scaleSet(ScaleSetSpec.flexible(rg, "fx").sku("Standard_D4s_v5").instances(120, DEALLOCATED));
        CloudProvider provider = provider("fx");

        List<Instance> instances = provider.list();

        assertEquals(120, instances.size());
        assertEquals(3, lists(), "pages of 50");
        InstanceResults started = provider.start(instances.subList(70, 120));
        assertEquals(50, started.unfinished().size(), "the VMs of the last page can be started too");
        pace.pastListInterval();
        assertEquals(50, provider.list().stream().filter(i -> i.state().active()).count());
    }

    @Test
    void aUniformScaleSetOf300InstancesIsListedPageByPage() throws Exception {
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(300, DEALLOCATED));
        arm.state().setPowerState(rg, "hb", "299", RUNNING);

        List<Instance> instances = provider("hb").list();

        assertEquals(300, instances.size());
        assertEquals(6, lists());
        assertEquals(PowerState.RUNNING, byId(instances, "hb_299").state());
    }

    @Test
    void anOperationIsPolledEvery15sWhenAzureSendsNoRetryAfterAndAtItsIntervalWhenItDoes() throws Exception {
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(4, DEALLOCATED));
        CloudProvider provider = provider("hb");
        List<Instance> instances = provider.list();
        arm.faults().inject("POST", "/resourceGroups/" + rg + "/.*/hb/start$", 1,
                Fault.slowOperation(Duration.ofMinutes(2)));
        int before = arm.log().count(RequestKind.OPERATION_POLL);

        InstanceResults unsaid = provider.start(instances.subList(0, 2));
        int pollsUnsaid = arm.log().count(RequestKind.OPERATION_POLL) - before;

        arm.settings().retryAfterSeconds(40);
        arm.faults().inject("POST", "/resourceGroups/" + rg + "/.*/hb/start$", 1,
                Fault.slowOperation(Duration.ofMinutes(2)));
        int middle = arm.log().count(RequestKind.OPERATION_POLL);
        InstanceResults said = provider.start(instances.subList(2, 4));
        int pollsSaid = arm.log().count(RequestKind.OPERATION_POLL) - middle;

        assertEquals(2, unsaid.done().size());
        assertEquals(2, said.done().size());
        assertEquals(9, pollsUnsaid, "two minutes polled every 15 s, the first poll at once");
        assertEquals(4, pollsSaid, "Retry-After says 40 s: at 0, 40, 80 and 120 s");
        assertEquals(0, throttled());
    }

    @Test
    void aThousandInstanceScaleSetAskedEvery10sFor30MinutesStaysWithinEveryBucket() throws Exception {
        arm.scaleSet(ScaleSetSpec.uniform(rg, "big").instances(1000, DEALLOCATED));
        CloudProvider provider = provider("big");
        Instant start = clock.instant();
        int unknown = 0;
        while (clock.instant().isBefore(start.plus(Duration.ofMinutes(30)))) {
            try {
                assertEquals(1000, provider.list().size());
            } catch (CloudException e) {
                unknown++;
            }
            clock.advance(Duration.ofSeconds(10));
        }

        Map<String, long[]> counts = arm.buckets().counts();
        long pages = counts.get(ComputeBuckets.LIST_30_MIN.name())[0];
        System.out.println("1000 instances asked every 10 s for 30 min: " + lists() + " list pages ("
                + lists() / 20 + " listings), " + throttled() + " throttled");
        assertEquals(0, throttled(), "not one throttled answer");
        assertEquals(0, unknown, "always an answer: fresh, or the last listing");
        assertTrue(pages <= ComputeBuckets.LIST_30_MIN.capacity() / 2, pages + " pages in 30 min");
        assertTrue(lists() >= 20 * 15, "listed at least every 2 minutes: " + lists());
    }

    @Test
    void aListingBucketAzureReportsLowIsLeftToRefillWhileTheLastListingServes() throws Exception {
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(10, DEALLOCATED));
        CloudProvider provider = provider("hb");
        arm.buckets().drain(ComputeBuckets.LIST_3_MIN, 20);
        provider.list();
        int first = lists();

        pace.pastListInterval();
        assertEquals(10, provider.list().size());
        int whileLow = lists();
        clock.advance(Duration.ofSeconds(60));
        provider.list();

        assertEquals(1, first);
        assertEquals(1, whileLow, "other clients left the 3-minute bucket at 19: hpcscale waits for it to refill");
        assertEquals(2, lists(), "and lists once it has");
        assertEquals(0, throttled());
    }

    @Test
    void aVmBeingDeletedIsStoppingAndNeverStarted() throws Exception {
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(2, DEALLOCATED));
        arm.state().makeOdd(rg, "hb", "0", io.hpcscale.cloud.azure.fake.Instance.Oddity.DELETING, null);

        List<Instance> instances = provider("hb").list();

        assertEquals(PowerState.STOPPING, byId(instances, "hb_0").state(),
                "ProvisioningState/deleting with PowerState/deallocated is going away, not stopped");
        assertEquals(PowerState.STOPPED, byId(instances, "hb_1").state());
    }

    @Test
    void anUnknownPowerStateIsUnknownNotStarting() throws Exception {
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(1, RUNNING));
        arm.state().makeOdd(rg, "hb", "0", io.hpcscale.cloud.azure.fake.Instance.Oddity.POWER_UNKNOWN, null);

        assertEquals(PowerState.UNKNOWN, provider("hb").list().get(0).state());
    }

    @Test
    void aVmWhoseProvisioningFailedWithoutAPowerStateIsFailedWithItsCode() throws Exception {
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(2, RUNNING));
        arm.state().makeOdd(rg, "hb", "1", io.hpcscale.cloud.azure.fake.Instance.Oddity.FAILED_WITHOUT_POWER,
                "OSProvisioningTimedOut");

        Instance failed = byId(provider("hb").list(), "hb_1");

        assertEquals(PowerState.FAILED, failed.state());
        assertNotNull(failed.failure());
        assertEquals("OSProvisioningTimedOut", failed.failure().code());
        assertFalse(failed.failure().capacity());
    }

    @Test
    void aFlexibleVmWithoutANameIsLeftOutAndTheRestListed() throws Exception {
        arm.scaleSet(ScaleSetSpec.flexible(rg, "fx").sku("Standard_D4s_v5").instances(3, RUNNING));
        String vm = arm.state().scaleSet(rg, "fx").orElseThrow().instances().get(1).instanceId();
        arm.state().makeOdd(rg, "fx", vm, io.hpcscale.cloud.azure.fake.Instance.Oddity.NAMELESS, null);

        List<Instance> instances = provider("fx").list();

        assertEquals(2, instances.size());
        assertTrue(instances.stream().noneMatch(i -> i.id().equals(vm)));
    }

    @Test
    void capacityCodesInErrorDetailsAndASpotPriceBelowTheMarketAreCapacity() throws Exception {
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(3, DEALLOCATED));
        CloudProvider provider = provider("hb");
        List<Instance> instances = provider.list();
        arm.faults().inject("POST", "/resourceGroups/" + rg + "/.*/hb/start$", 1,
                Fault.operationFailsWithDetail("OperationNotAllowed", "ZonalAllocationFailed"));
        arm.faults().inject("POST", "/resourceGroups/" + rg + "/.*/hb/start$", 1,
                Fault.refusedWithDetail(409, "BadRequest", "AllocationFailed"));
        arm.faults().inject("POST", "/resourceGroups/" + rg + "/.*/hb/start$", 1,
                Fault.operationFails("SpotPriceGreaterThanProvidedMaxPrice"));

        for (String code : List.of("ZonalAllocationFailed", "AllocationFailed",
                "SpotPriceGreaterThanProvidedMaxPrice")) {
            CloudException e = provider.start(instances.subList(0, 1)).failed().values().iterator().next();
            CapacityException capacity = assertInstanceOf(CapacityException.class, e, e.getMessage());
            assertTrue(capacity.getMessage().contains(code), capacity.getMessage());
            assertFalse(capacity.permanent());
        }
    }

    @Test
    void aVmSizeTheSubscriptionMayNotUseIsRefusedForGoodAndNotAskedAgain() throws Exception {
        arm.state().resourceGroup(rg).orElseThrow();
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hc").sku("Standard_HC44rs").location("eastus")
                .instances(2, DEALLOCATED));
        arm.sizes().restrict("Standard_HC44rs", "eastus");
        try {
            CloudProvider provider = provider("hc");
            List<Instance> instances = provider.list();
            arm.faults().inject("POST", "/resourceGroups/" + rg + "/.*/hc/start$", 1,
                    Fault.operationFails("SkuNotAvailable"));

            CloudException first = provider.start(instances.subList(0, 1)).failed().values().iterator().next();
            int starts = arm.log().count(e -> e.kind() == RequestKind.START && e.path().contains(rg));
            CloudException second = provider.start(instances.subList(1, 2)).failed().values().iterator().next();

            assertTrue(assertInstanceOf(CapacityException.class, first).permanent(), first.getMessage());
            assertTrue(first.getMessage().contains("NotAvailableForSubscription in eastus"), first.getMessage());
            assertTrue(assertInstanceOf(CapacityException.class, second).permanent());
            assertEquals(starts, arm.log().count(e -> e.kind() == RequestKind.START && e.path().contains(rg)),
                    "not asked again");
        } finally {
            arm.sizes().unrestrict("Standard_HC44rs", "eastus");
        }
    }

    @Test
    void aGetNeverReturnsBootDataOrSecretsWhileTheScaleSetKeepsThem() throws Exception {
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(1, RUNNING));
        com.fasterxml.jackson.databind.node.ObjectNode model = arm.state().scaleSet(rg, "hb").orElseThrow().model();
        var os = model.withObjectProperty("properties").withObjectProperty("virtualMachineProfile")
                .withObjectProperty("osProfile");
        os.put("customData", "I2Nsb3VkLWNvbmZpZw==").put("adminPassword", "s3cret");
        model.withObjectProperty("properties").withObjectProperty("virtualMachineProfile").put("userData", "dXNlcg==");
        arm.state().replaceModel(rg, "hb", model);
        AzureClients clients = new AzureClients(AzureSettings.from(FakeArmServer.settings(Map.of())), null, pace);
        var scaleSets = clients.compute(arm.subscriptionId()).serviceClient().getVirtualMachineScaleSets();

        var plain = scaleSets.getByResourceGroup(rg, "hb");
        var expanded = scaleSets.getByResourceGroupWithResponse(rg, "hb",
                com.azure.resourcemanager.compute.models.ExpandTypesForGetVMScaleSets.USER_DATA,
                com.azure.core.util.Context.NONE).getValue();

        assertNull(plain.virtualMachineProfile().osProfile().customData());
        assertNull(plain.virtualMachineProfile().osProfile().adminPassword());
        assertNull(plain.virtualMachineProfile().userData());
        assertEquals("dXNlcg==", expanded.virtualMachineProfile().userData());
        assertEquals("I2Nsb3VkLWNvbmZpZw==", arm.state().scaleSet(rg, "hb").orElseThrow().model()
                .path("properties").path("virtualMachineProfile").path("osProfile").path("customData").asText());
    }

    @Test
    void anOverprovisioningScaleSetMakesExtrasThatVanishMinutesLater() throws Exception {
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").overprovision(true).instances(2, RUNNING));
        CloudProvider provider = provider("hb", "pool.p.azure.allowCreate", "true");
        provider.list();

        var created = provider.create(5);
        int listedRightAfter = created.created().size();
        clock.advance(Duration.ofMinutes(3));
        pace.pastListInterval();
        List<Instance> later = provider.list();

        assertNull(created.failure());
        assertEquals(6, listedRightAfter, "five asked, one extra");
        assertEquals(7, later.size(), "the extra is gone");
        assertEquals(7, arm.state().scaleSet(rg, "hb").orElseThrow().capacity());
    }

    @Test
    void aBatchRefusedForOneVanishedInstanceIsAskedAgainAtOnceWithoutIt() throws Exception {
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(3, RUNNING));
        CloudProvider provider = provider("hb");
        List<Instance> instances = provider.list();
        arm.state().deleteInstance(rg, "hb", "1");

        InstanceResults results = provider.stop(instances, io.hpcscale.scaler.pool.StopAction.DEALLOCATE);

        List<io.hpcscale.cloud.azure.fake.RequestLog.Entry> calls = arm.log().entries(
                RequestKind.DEALLOCATE).stream().filter(e -> e.path().contains(rg)).toList();
        assertEquals(2, calls.size(), "refused for hb_1, then asked without it");
        assertTrue(calls.get(1).body().contains("\"instanceIds\":[\"0\",\"2\"]"), calls.get(1).body());
        assertEquals(3, results.done().size(), "the two deallocated, and the vanished one is no longer running");
        assertEquals(DEALLOCATED, arm.state().instance(rg, "hb", "0").powerState());
    }
}
