package io.hpcscale.cloud.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.resourcemanager.resources.fluent.models.GenericResourceInner;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.Fault;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.RequestKind;
import io.hpcscale.cloud.azure.fake.RequestLog;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import io.hpcscale.cloud.azure.fake.StandbyPool;
import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.cloud.CallGate;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.CreateResult;
import io.hpcscale.scaler.cloud.ThrottledException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code pool.<name>.azure.standbyPool} through the real SDK against the fake Resource Manager: the scaler creates
 * the standby pool beside the scale set, keeps it as configured, and a scale-out takes its ready VMs.
 */
@ExtendWith(FakeArmServer.class)
class StandbyPoolTest {
    private static final AtomicInteger GROUPS = new AtomicInteger();

    private final FakeArm arm = FakeArmServer.arm();
    private final String rg = "rg-standby-" + GROUPS.incrementAndGet();
    private final TestPace pace = TestPace.startingNow();

    @AfterEach
    void registerAgain() {
        arm.standbyPools().registered(true);
        arm.permissions().reset();
        arm.faults().clear();
    }



    private Settings settings(String scaleSet, String state, int size) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("pool.p.provider", "azure");
        values.put("pool.p.max", "20");
        values.put("pool.p.stopAction", "delete");
        values.put("pool.p.azure.resourceGroup", rg);
        values.put("pool.p.azure.scaleSet", scaleSet);
        values.put("pool.p.azure.allowCreate", "true");
        values.put("pool.p.azure.standbyPool", "hb-standby");
        values.put("pool.p.azure.standbyPoolState", state);
        values.put("pool.p.azure.standbyPoolSize", Integer.toString(size));
        return FakeArmServer.settings(values);
    }

    private AzureClients clients(Settings settings) {
        return new AzureClients(AzureSettings.from(settings), null, pace);
    }

    private CloudProvider provider(Settings settings) {
        return new AzureProviders(clients(settings), CallGate.ALWAYS_OPEN, false).forPool(settings.pool("p"));
    }

    /** The keeper alone, to read what it says. */
    private java.util.Optional<String> keep(Settings settings, String scaleSet) throws Exception {
        AzureClients clients = clients(settings);
        StandbyPoolKeeper keeper = new StandbyPoolKeeper(clients,
                AzurePoolSettings.from(settings.pool("p"), clients.settings()));
        return keeper.keep(() -> model(clients, scaleSet));
    }

    private ScaleSetModel model(AzureClients clients, String scaleSet) {
        return ScaleSetModel.of(clients.compute(arm.subscriptionId()).serviceClient().getVirtualMachineScaleSets()
                .getByResourceGroup(rg, scaleSet));
    }

    /** A standby pool made by hand (the CLI, the portal) before hpcscale is told of it. */
    private void madeByHand(Map<String, Object> properties, Map<String, String> tags) {
        AzureClients clients = clients(settings("fx", "deallocated", 1));
        clients.compute(arm.subscriptionId()).resourceManager().serviceClient().getResources()
                .beginCreateOrUpdateById("/subscriptions/" + arm.subscriptionId() + "/resourceGroups/" + rg
                        + "/providers/Microsoft.StandbyPool/standbyVirtualMachinePools/hb-standby",
                        StandbyPoolResource.API_VERSION, new GenericResourceInner().withLocation("westeurope")
                                .withTags(tags).withProperties(properties))
                .waitForCompletion();
    }

    private void flexible(String name, boolean hibernationEnabled) {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.flexible(rg, name).sku("Standard_D4s_v5").hibernationEnabled(hibernationEnabled)
                .instances(1, PowerState.RUNNING));
    }

    private StandbyPool standbyPool() {
        return arm.standbyPools().get(rg, "hb-standby").orElseThrow(() -> new AssertionError("no standby pool"));
    }

    private int standbyPoolCalls(String method) {
        return standbyPoolCalls(e -> e.method().equals(method));
    }

    private int standbyPoolCalls(java.util.function.Predicate<RequestLog.Entry> which) {
        return arm.log().count(e -> which.test(e) && e.path().contains("/resourceGroups/" + rg + "/")
                && e.path().contains("standbyVirtualMachinePools"));
    }

    @Test
    void theFirstCycleCreatesTheStandbyPoolAttachedToTheScaleSetWithItsSizeAndState() throws Exception {
        flexible("fx", false);

        List<String> done = provider(settings("fx", "deallocated", 4)).tidy();

        assertEquals(List.of("created standby pool hb-standby of scale set fx in resource group " + rg + " to 4 "
                + "deallocated VMs (standby pool hb-standby of scale set fx in resource group " + rg + " does not "
                + "exist)"), done, "an event of the cycle");
        StandbyPool pool = standbyPool();
        assertEquals("Deallocated", pool.vmState());
        assertEquals(4, pool.maxReadyCapacity());
        assertEquals(arm.state().scaleSet(rg, "fx").orElseThrow().id(), pool.attachedScaleSetId());
        assertEquals("p", pool.tags().get("hpcscale-pool"), "marked as the pool's");
    }

    @Test
    void aStandbyPoolAsConfiguredIsOnlyReadAndOnlyEveryTenMinutes() throws Exception {
        flexible("fx", false);
        CloudProvider provider = provider(settings("fx", "deallocated", 4));
        provider.tidy();

        assertEquals(List.of(), provider.tidy(), "not read back in the same minute");
        pace.mutableClock().advance(StandbyPoolKeeper.READ_BACK);
        assertEquals(List.of(), provider.tidy(), "a minute later: read back, as configured and healthy");
        assertEquals(List.of(), provider.tidy(), "nothing due");
        int reads = standbyPoolCalls("GET");
        pace.mutableClock().advance(StandbyPoolKeeper.CHECK_EVERY);
        provider.tidy();

        assertEquals(3, reads, "read to create it, then it and its runtime view once");
        assertEquals(5, standbyPoolCalls("GET"), "both again ten minutes later");
        assertEquals(1, standbyPoolCalls("PUT"), "put only to create it");
    }

    @Test
    void aStandbyPoolMadeByHandIsAttachedAndSizedKeepingItsTags() throws Exception {
        flexible("fx", false);
        madeByHand(Map.of("virtualMachineState", "Deallocated", "elasticityProfile", Map.of("maxReadyCapacity", 2,
                "minReadyCapacity", 1)), Map.of("owner", "render-team"));

        String said = keep(settings("fx", "deallocated", 7), "fx").orElseThrow();

        assertEquals(7, standbyPool().maxReadyCapacity(), said);
        assertEquals(arm.state().scaleSet(rg, "fx").orElseThrow().id(), standbyPool().attachedScaleSetId());
        assertEquals("render-team", standbyPool().tags().get("owner"));
        assertEquals("p", standbyPool().tags().get("hpcscale-pool"));
        assertTrue(said.contains("was of 2 deallocated VMs, attached to no scale set"), said);
    }

    @Test
    void aPoolAzureIsStillUpdatingIsLeftAloneAndReadAgainAMinuteLater() throws Exception {
        flexible("fx", false);
        CloudProvider provider = provider(settings("fx", "deallocated", 4));
        provider.tidy();
        provider.tidy();
        standbyPool().provisioningState("Updating");
        CloudProvider resized = provider(settings("fx", "deallocated", 6));

        assertEquals(List.of(), resized.tidy());
        assertEquals(List.of(), resized.tidy(), "not due yet");
        pace.mutableClock().advance(StandbyPoolKeeper.READ_BACK);
        assertEquals(List.of(), resized.tidy(), "read again a minute later");

        assertEquals(1, standbyPoolCalls("PUT"), "nothing put while Azure applies a change");
        assertEquals(3, standbyPoolCalls("GET") - standbyPoolCalls(e -> e.path().endsWith("/latest")),
                "the pool read at creation, then twice a minute apart while it updates");
    }

    @Test
    void aFailedChangeIsPutAgainButNotEveryCycleWhenAzureKeepsFailingIt() throws Exception {
        flexible("fx", false);
        CloudProvider provider = provider(settings("fx", "deallocated", 4));
        provider.tidy();
        standbyPool().provisioningState("Failed");
        pace.mutableClock().advance(StandbyPoolKeeper.READ_BACK);

        CloudException again = assertThrows(CloudException.class, provider::tidy);
        assertTrue(again.getMessage().contains("its last change failed after the scaler put it at ")
                && again.getMessage().contains("Azure failed that change"), again.getMessage());
        assertEquals(1, standbyPoolCalls("PUT"), "not put again within ten minutes of the last");
        pace.mutableClock().advance(StandbyPoolKeeper.CHECK_EVERY);

        assertEquals(1, provider.tidy().size());
        assertEquals(2, standbyPoolCalls("PUT"), "put again once ten minutes have passed");
    }

    @Test
    void aPoolDegradedAtTwoChecksInARowIsAFailureThatNamesItsUsualCauses() throws Exception {
        flexible("fx", false);
        CloudProvider provider = provider(settings("fx", "deallocated", 4));
        provider.tidy();
        standbyPool().degraded("Virtual machine creation failed: AuthorizationFailed.");
        pace.mutableClock().advance(StandbyPoolKeeper.READ_BACK);
        assertEquals(List.of(), provider.tidy(), "Azure pauses a degraded pool 30 s and tries again: once is not yet "
                + "a failure");
        pace.mutableClock().advance(StandbyPoolKeeper.CHECK_EVERY);

        CloudException degraded = assertThrows(CloudException.class, provider::tidy);

        assertTrue(degraded.getMessage().contains("HealthState/degraded (Virtual machine creation failed")
                && degraded.getMessage().contains("Standby Pool Resource Provider"), degraded.getMessage());
    }

    @Test
    void aThrottledReadStaysThrottledAndAMissingResourceGroupIsNotAMissingPool() throws Exception {
        flexible("fx", false);
        arm.faults().inject("GET", "standbyVirtualMachinePools/hb-standby$", 1, Fault.tooManyRequests(60));
        arm.faults().inject("GET", "standbyVirtualMachinePools/hb-standby$", 1, Fault.resourceGroupNotFound(rg));

        assertThrows(ThrottledException.class, () -> keep(settings("fx", "deallocated", 2), "fx"));
        CloudException unknown = assertThrows(CloudException.class, () -> keep(settings("fx", "deallocated", 2),
                "fx"));

        assertTrue(unknown.getMessage().contains("ResourceGroupNotFound"), unknown.getMessage());
        assertEquals(0, standbyPoolCalls("PUT"), "unknown is not none: nothing created");
    }

    @Test
    void afterAFailureThePoolIsLeftForTenMinutes() throws Exception {
        flexible("fx", false);
        arm.standbyPools().registered(false);
        CloudProvider provider = provider(settings("fx", "deallocated", 2));
        assertThrows(CloudException.class, provider::tidy);
        int reads = standbyPoolCalls("GET");

        assertEquals(List.of(), provider.tidy());
        assertEquals(reads, standbyPoolCalls("GET"), "not read again before ten minutes");
        pace.mutableClock().advance(StandbyPoolKeeper.CHECK_EVERY);
        arm.standbyPools().registered(true);

        assertEquals(1, provider.tidy().size(), "created ten minutes later");
    }

    @Test
    void aScaleSetOfSeveralFaultDomainsOrEphemeralDisksGetsNoPoolAzureWouldNotKeep() throws Exception {
        flexible("fx", false);
        ObjectNode model = arm.state().scaleSet(rg, "fx").orElseThrow().model();
        model.withObjectProperty("properties").put("platformFaultDomainCount", 3);
        arm.state().replaceModel(rg, "fx", model);
        CloudException domains = assertThrows(CloudException.class, () -> keep(settings("fx", "running", 2), "fx"));
        model.withObjectProperty("properties").put("platformFaultDomainCount", 1);
        model.withObjectProperty("properties").withObjectProperty("virtualMachineProfile")
                .withObjectProperty("storageProfile").withObjectProperty("osDisk")
                .withObjectProperty("diffDiskSettings").put("option", "Local");
        arm.state().replaceModel(rg, "fx", model);

        CloudException ephemeral = assertThrows(CloudException.class, () -> keep(settings("fx", "deallocated", 2),
                "fx"));

        assertTrue(domains.getMessage().contains("3 fault domains"), domains.getMessage());
        assertTrue(ephemeral.getMessage().contains("ephemeral"), ephemeral.getMessage());
        assertTrue(keep(settings("fx", "running", 2), "fx").isPresent(), "a running pool of ephemeral disks is kept");
    }

    @Test
    void onlyTheMoveBetweenDeallocatedAndHibernatedGoesThroughRunning() {
        assertEquals(StandbyPoolSettings.VmState.RUNNING, StandbyPoolKeeper.nextState(
                StandbyPoolSettings.VmState.HIBERNATED, StandbyPoolSettings.VmState.DEALLOCATED));
        assertEquals(StandbyPoolSettings.VmState.HIBERNATED, StandbyPoolKeeper.nextState(
                StandbyPoolSettings.VmState.RUNNING, StandbyPoolSettings.VmState.HIBERNATED));
        assertEquals(StandbyPoolSettings.VmState.DEALLOCATED, StandbyPoolKeeper.nextState(null,
                StandbyPoolSettings.VmState.DEALLOCATED));
    }

    @Test
    void deallocatedToHibernatedGoesThroughRunningBecauseAzureRefusesTheDirectStep() throws Exception {
        flexible("fx", true);
        provider(settings("fx", "deallocated", 3)).tidy();
        CloudProvider hibernating = provider(settings("fx", "hibernated", 3));

        hibernating.tidy();
        assertEquals("Running", standbyPool().vmState(), "the first step");
        pace.mutableClock().advance(StandbyPoolKeeper.READ_BACK);
        hibernating.tidy();

        assertEquals("Hibernated", standbyPool().vmState(), "the second step, once the first is read back");
        assertEquals(3, standbyPoolCalls("PUT"));
    }

    @Test
    void anUnregisteredProviderIsSaidWithTheCommandThatRegistersItAndNothingIsSentToIt() throws Exception {
        flexible("fx", false);
        arm.standbyPools().registered(false);

        CloudException refused = assertThrows(CloudException.class, () -> keep(settings("fx", "deallocated", 2),
                "fx"));
        assertTrue(refused.getMessage().contains("has not registered Microsoft.StandbyPool (NotRegistered)"),
                refused.getMessage());
        assertEquals(0, standbyPoolCalls(e -> true), "no request the SDK would answer by registering it itself, "
                + "a write that waits up to five minutes");
        assertTrue(refused.getMessage().contains("az provider register --namespace Microsoft.StandbyPool"),
                refused.getMessage());

        CloudProvider provider = provider(settings("fx", "deallocated", 2));
        assertEquals(1, provider.list().size(), "the pool goes on without it");
        CloudException tidying = assertThrows(CloudException.class, provider::tidy);
        assertTrue(tidying.getMessage().contains("az provider register"), "an event of the cycle says what to do: "
                + tidying.getMessage());
    }

    /** An identity whose role does not let it read the subscription's providers. */
    private void registrationUnreadable() {
        arm.faults().inject("GET", "/providers/Microsoft\\.StandbyPool$", 1, Fault.error(403, "AuthorizationFailed",
                "The client does not have authorization to perform action "
                        + "'Microsoft.Resources/subscriptions/providers/read' over scope '/subscriptions/"
                        + arm.subscriptionId() + "'."));
    }

    @Test
    void aScalerThatMayNotReadTheRegistrationGoesOnAndTheSdkRegistersTheProviderWhereItMay() throws Exception {
        flexible("fx", false);
        arm.standbyPools().registered(false);
        registrationUnreadable();
        int registrations = arm.log().count(RequestKind.REGISTER);

        assertTrue(keep(settings("fx", "deallocated", 2), "fx").isPresent(), "created");

        assertEquals(registrations + 1, arm.log().count(RequestKind.REGISTER),
                "the SDK's ProviderRegistrationPolicy registered it on the refusal, then sent the read again");
        assertEquals(2, standbyPool().maxReadyCapacity());
    }

    @Test
    void aScalerThatMayNeitherReadNorRegisterTheProviderSaysWhatToRun() throws Exception {
        flexible("fx", false);
        arm.standbyPools().registered(false);
        registrationUnreadable();
        arm.permissions().deny("Microsoft.StandbyPool/register/action");

        CloudException refused = assertThrows(CloudException.class, () -> keep(settings("fx", "deallocated", 2),
                "fx"));

        assertTrue(refused.getMessage().contains("MissingSubscriptionRegistration")
                && refused.getMessage().contains("az provider register --namespace Microsoft.StandbyPool"),
                refused.getMessage());
        assertEquals(0, standbyPoolCalls("PUT"));
    }

    @Test
    void aScaleOutTakesTheStandbyPoolsReadyVms() throws Exception {
        flexible("fx", false);
        CloudProvider provider = provider(settings("fx", "deallocated", 4));
        provider.tidy();

        CreateResult created = provider.create(3);

        assertEquals(3, created.created().size(), String.valueOf(created.failure()));
        assertEquals(3, standbyPool().handedOut(), "started from the pool, not made anew");
        assertEquals(4, standbyPool().ready(arm.settings().clock().instant()), "and the pool refills to its size, "
                + "its minReadyCapacity, though maxReadyCapacity less the 4 instances is none");
    }

    @Test
    void aUniformScaleSetGetsNoStandbyPool() throws Exception {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(rg, "ux").sku("Standard_D4s_v5").instances(1, PowerState.RUNNING));

        CloudException refused = assertThrows(CloudException.class, () -> keep(settings("ux", "deallocated", 2),
                "ux"));

        assertTrue(refused.getMessage().contains("Flexible scale sets only"), refused.getMessage());
        assertEquals(0, standbyPoolCalls("PUT"));
    }

    @Test
    void aHibernatedStandbyPoolNeedsTheScaleSetToEnableHibernation() throws Exception {
        flexible("fx", false);

        CloudException refused = assertThrows(CloudException.class, () -> keep(settings("fx", "hibernated", 2),
                "fx"));

        assertTrue(refused.getMessage().contains("hibernationEnabled"), refused.getMessage());
        assertEquals(0, standbyPoolCalls("PUT"));
    }

    @Test
    void aStandbyPoolOfThatNameAttachedToAnotherScaleSetIsNotTakenOver() throws Exception {
        flexible("fx", false);
        arm.scaleSet(ScaleSetSpec.flexible(rg, "other").sku("Standard_D4s_v5").instances(0, PowerState.RUNNING));
        keep(settings("other", "deallocated", 2), "other");

        CloudException refused = assertThrows(CloudException.class, () -> keep(settings("fx", "deallocated", 2),
                "fx"));

        assertTrue(refused.getMessage().contains("attached to"), refused.getMessage());
        assertTrue(standbyPool().attachedScaleSetId().endsWith("/other"));
    }
}
