package io.hpcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.cloud.azure.FakeArmServer;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.Fault;
import io.hpcscale.cloud.azure.fake.Instance;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.RequestKind;
import io.hpcscale.cloud.azure.fake.ScaleSet;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import io.hpcscale.cloud.azure.fake.ScaleSetTemplates;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fixed pool spread over several scale sets, through the real CLI against the fake Resource Manager (every
 * {@code once} a new scaler process on one store): the first scale set fills up, a new one is deployed from the pool's template (its cloud-init kept), a
 * scale set refused for capacity is sealed and another made for the rest, the seal survives a restart, and a sealed
 * scale set that empties is deleted.
 */
@ExtendWith(FakeArmServer.class)
class SealedScaleSetsOnAzureTest {
    private static final String RG = "rg-seal";

    @TempDir
    Path dir;

    private final FakeArm arm = FakeArmServer.arm();

    private void count(int n) {
        arm.state().resourceGroup(RG).orElseThrow().tags().put("TOTAL_NODES", Integer.toString(n));
    }

    private ScaleSet set(String name) {
        return arm.state().scaleSet(RG, name).orElseThrow();
    }

    private long active(String name) {
        return arm.state().scaleSet(RG, name).map(s -> s.instances().stream().map(Instance::powerState)
                .filter(p -> p == PowerState.RUNNING || p == PowerState.STARTING).count()).orElse(0L);
    }

    private long requests(RequestKind kind, String scaleSet) {
        return arm.log().entries(kind).stream()
                .filter(e -> e.path().contains("/resourceGroups/" + RG + "/") && e.path().endsWith("/" + scaleSet))
                .count();
    }

    private ScalerStateDocument state() {
        return ScalerCommandLine.state(dir, "farm");
    }

    @Test
    void aScaleSetRefusedForCapacityIsSealedAnotherIsMadeAndAnEmptySealedOneIsDeleted() throws Exception {
        arm.resourceGroup(RG, "westeurope", Map.of("TOTAL_NODES", "3"));
        arm.scaleSet(ScaleSetSpec.uniform(RG, "farm").computerNamePrefix("farm").instances(3, PowerState.RUNNING));
        Path config = dir.resolve("hpcscale.properties");
        List<String> settings = AzureCommandLine.settings(arm, dir);
        settings.addAll(List.of(
                "pool.farm.provider = azure",
                "pool.farm.target = fixed",
                "pool.farm.max = 20",
                "pool.farm.azure.allowCreate = true",
                "pool.farm.azure.vmsPerScaleSet = 3",
                "pool.farm.azure.resourceGroup = " + RG,
                "pool.farm.azure.scaleSet = farm",
                "pool.farm.azure.template = " + ScaleSetTemplates.write(ScaleSetSpec.uniform(RG, "farm"),
                        dir.resolve("farm.json"))));
        Files.write(config, settings);
        ScalerCommandLine.once(config);

        count(5);
        String grown = ScalerCommandLine.once(config);
        assertEquals(2, active("farm-2"), "the first is full: a new scale set from the template: " + grown);
        assertEquals("farm", set("farm-2").model().path("tags").path("hpcscale-pool").asText());
        assertEquals("farm-2", set("farm-2").computerNamePrefix(), "its own host names, as the template names them");
        assertEquals(ScaleSetTemplates.CLOUD_INIT, ScaleSetTemplates.customData(set("farm-2")),
                "it boots the template's cloud-init");

        arm.faults().inject("PATCH", "/virtualMachineScaleSets/farm-2$", 1,
                Fault.operationFails("AllocationFailed"));
        count(7);
        String sealed = ScalerCommandLine.once(config);
        assertTrue(set("farm-2").model().path("tags").has("hpcscale-sealed"), sealed);
        assertTrue(state().sealedScaleSets().containsKey("farm-2"), "recorded in the scaler's state");
        ScalerCommandLine.Run status = ScalerCommandLine.run("status", "--config", config.toString());
        assertTrue(status.output().contains("sealed     farm-2: "), "status shows the seal: " + status.output());
        assertTrue(status.output().contains("AllocationFailed"), status.output());
        assertEquals(2, active("farm-3"), "made up the difference: " + sealed);
        assertEquals(7, active("farm") + active("farm-2") + active("farm-3"));

        count(8);
        String afterRestart = ScalerCommandLine.once(config);
        assertEquals(1, requests(RequestKind.PATCH_CAPACITY, "farm-2"), "sealed: not grown again: " + afterRestart);
        assertEquals(3, active("farm-3"));

        for (Instance instance : set("farm-2").instances()) {
            arm.state().evict(RG, "farm-2", instance.instanceId());
        }
        ScalerCommandLine.once(config);
        assertTrue(set("farm-2").instances().isEmpty(), "a sealed scale set's stopped instances are deleted");
        assertEquals(8, active("farm") + active("farm-3") + active("farm-4"), "replaced in a new scale set");

        String tidied = ScalerCommandLine.once(config);
        assertFalse(arm.state().scaleSet(RG, "farm-2").isPresent(), "the empty sealed scale set is gone: " + tidied);
        assertEquals(1, requests(RequestKind.DELETE_SCALE_SET, "farm-2"));
        assertTrue(arm.state().scaleSet(RG, "farm").isPresent(), "never the template");
    }
}
