package io.hpcscale.cloud.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import io.hpcscale.cloud.azure.fake.StandbyPool;
import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.cloud.CallGate;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.CreateResult;
import java.time.Duration;
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
                AzurePoolSettings.from(settings.pool("p"), clients.settings()),
                new LongOperations(Duration.ofSeconds(30), CallGate.ALWAYS_OPEN, pace));
        return keeper.keep(ScaleSetModel.of(clients.compute(arm.subscriptionId()).serviceClient()
                .getVirtualMachineScaleSets().getByResourceGroup(rg, scaleSet)));
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
        return arm.log().count(e -> e.method().equals(method) && e.path().contains("/resourceGroups/" + rg + "/")
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

        pace.pastListInterval();
        provider.list();
        assertEquals(List.of(), provider.tidy(), "nothing to do");
        assertEquals(1, standbyPoolCalls("GET"), "read once in ten minutes");
        pace.mutableClock().advance(StandbyPoolKeeper.CHECK_EVERY);
        provider.tidy();

        assertEquals(2, standbyPoolCalls("GET"));
        assertEquals(1, standbyPoolCalls("PUT"), "put only to create it");
    }

    @Test
    void aNewSizeInTheSettingsIsPutOnTheStandbyPoolAndItsTagsKept() throws Exception {
        flexible("fx", false);
        provider(settings("fx", "deallocated", 4)).tidy();

        String said = keep(settings("fx", "deallocated", 7), "fx").orElseThrow();

        assertEquals(7, standbyPool().maxReadyCapacity(), said);
        assertEquals("p", standbyPool().tags().get("hpcscale-pool"));
        assertTrue(said.startsWith("set standby pool hb-standby"), said);
    }

    @Test
    void deallocatedToHibernatedGoesThroughRunningBecauseAzureRefusesTheDirectStep() throws Exception {
        flexible("fx", true);
        provider(settings("fx", "deallocated", 3)).tidy();
        CloudProvider hibernating = provider(settings("fx", "hibernated", 3));

        hibernating.tidy();
        assertEquals("Running", standbyPool().vmState(), "the first step");
        hibernating.tidy();

        assertEquals("Hibernated", standbyPool().vmState(), "the second step, at the next cycle");
        assertEquals(3, standbyPoolCalls("PUT"));
    }

    @Test
    void anUnregisteredProviderIsSaidWithTheCommandThatRegistersItAndTheScaleSetIsStillListed() throws Exception {
        flexible("fx", false);
        arm.standbyPools().registered(false);

        CloudException refused = assertThrows(CloudException.class, () -> keep(settings("fx", "deallocated", 2),
                "fx"));
        assertTrue(refused.getMessage().contains("MissingSubscriptionRegistration"), refused.getMessage());
        assertTrue(refused.getMessage().contains("az provider register --namespace Microsoft.StandbyPool"),
                refused.getMessage());

        CloudProvider provider = provider(settings("fx", "deallocated", 2));
        assertEquals(1, provider.list().size(), "the pool goes on without it");
        CloudException tidying = assertThrows(CloudException.class, provider::tidy);
        assertTrue(tidying.getMessage().contains("the pool grows without it"), tidying.getMessage());
    }

    @Test
    void aScaleOutTakesTheStandbyPoolsReadyVms() throws Exception {
        flexible("fx", false);
        CloudProvider provider = provider(settings("fx", "deallocated", 4));
        provider.tidy();

        CreateResult created = provider.create(3);

        assertEquals(3, created.created().size(), String.valueOf(created.failure()));
        assertEquals(3, standbyPool().handedOut(), "started from the pool, not made anew");
        assertEquals(4, standbyPool().maxReadyCapacity(), "and the pool refills");
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
