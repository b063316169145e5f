package io.hpcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.cloud.azure.FakeArmServer;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.Instance;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.RequestKind;
import io.hpcscale.cloud.azure.fake.RequestLog;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A render farm's Spot pool with no scheduler agent, driven through the real CLI against the fake Resource Manager:
 * the count comes from the resource group's {@code TOTAL_NODES} tag, {@code set-capacity} merges that one tag, and an
 * eviction storm is replaced. Every {@code once} is a new scaler process on the same store, so each step also
 * shows a restart picking up where the last one stopped.
 */
@ExtendWith(FakeArmServer.class)
class FixedTargetOnAzureTest {
    @TempDir
    Path dir;

    private final FakeArm arm = FakeArmServer.arm();

    private static ScalerCommandLine.Run cli(String... args) {
        return ScalerCommandLine.run(args);
    }

    private Path config(String rg, String scaleSet, String... more) throws Exception {
        Path config = dir.resolve("hpcscale.properties");
        List<String> lines = AzureCommandLine.settings(arm, dir);
        lines.addAll(List.of(
                "pool.render.provider = azure",
                "pool.render.target = fixed",
                "pool.render.max = 8",
                "pool.render.azure.resourceGroup = " + rg,
                "pool.render.azure.scaleSet = " + scaleSet));
        lines.addAll(List.of(more));
        Files.write(config, lines);
        return config;
    }

    private List<RequestLog.Entry> requests(String rg, RequestKind kind) {
        return arm.log().entries(kind).stream().filter(e -> e.path().contains("/resourceGroups/" + rg))
                .toList();
    }

    private long active(String rg, String scaleSet) {
        return arm.state().scaleSet(rg, scaleSet).orElseThrow().instances().stream()
                .map(Instance::powerState).filter(s -> s == PowerState.RUNNING || s == PowerState.STARTING).count();
    }

    private ScalerStateDocument state() {
        return ScalerCommandLine.state(dir, "render");
    }

    @Test
    void theTagDrivesTheCountSetCapacityMergesItAndAnEvictionStormIsStartedAgainInOneCycle() throws Exception {
        String rg = "rg-render";
        arm.resourceGroup(rg, "westeurope", Map.of("TOTAL_NODES", "4", "owner", "render-team"));
        arm.scaleSet(ScaleSetSpec.uniform(rg, "spot").computerNamePrefix("rn").spot("Deallocate")
                .instances(8, PowerState.DEALLOCATED));
        Path config = config(rg, "spot");

        String first = ScalerCommandLine.once(config);
        assertEquals(1, requests(rg, RequestKind.START).size(), "four started in one call: " + first);
        assertEquals(4, active(rg, "spot"));

        ScalerCommandLine.Run set = cli("set-capacity", "render", "6", "--config", config.toString());
        assertEquals(0, set.code(), set.output());
        assertTrue(set.output().contains("target 4 -> 6"), set.output());
        assertEquals("6", arm.state().resourceGroup(rg).orElseThrow().tags().get("TOTAL_NODES"));
        assertEquals("render-team", arm.state().resourceGroup(rg).orElseThrow().tags().get("owner"), "the group's other tags stay");
        ScalerCommandLine.once(config);
        assertEquals(6, active(rg, "spot"));

        List<String> running = arm.state().scaleSet(rg, "spot").orElseThrow().instances().stream()
                .filter(i -> i.powerState() == PowerState.RUNNING).map(Instance::instanceId).toList();
        for (String id : running.subList(0, 3)) {
            arm.state().evict(rg, "spot", id);
        }
        assertEquals(3, active(rg, "spot"), "half the fleet taken back at once");
        int before = arm.log().armRequests();
        String recovered = ScalerCommandLine.once(config);
        int spent = arm.log().armRequests() - before;

        assertEquals(6, active(rg, "spot"), "back to target in one cycle: " + recovered);
        assertEquals(3, state().evictions(), "each eviction counted once");
        assertTrue(spent <= 6, "a listing, the tag, one start call and its poll, and as a new process the scale "
                + "set and the VM sizes once; was " + spent + ": " + arm.log().counts());
        System.out.printf("eviction storm: 3 of 6 instances evicted, back to target in 1 cycle, %d ARM requests "
                + "(%s)%n", spent, arm.log().counts());
    }

    @Test
    void aLoweredTargetWithoutAnAgentStopsNoRunningInstance() throws Exception {
        String rg = "rg-lazy";
        arm.resourceGroup(rg, "westeurope", Map.of("TOTAL_NODES", "3"));
        arm.scaleSet(ScaleSetSpec.uniform(rg, "lazy").spot("Deallocate").instances(4, PowerState.DEALLOCATED));
        Path config = config(rg, "lazy", "pool.render.shrink = idle-first");
        ScalerCommandLine.once(config);
        assertEquals(3, active(rg, "lazy"));

        arm.state().resourceGroup(rg).orElseThrow().tags().put("TOTAL_NODES", "1");
        String lowered = ScalerCommandLine.once(config);

        assertEquals(3, active(rg, "lazy"), "no agent shows their jobs: " + lowered);
        assertEquals(0, requests(rg, RequestKind.DEALLOCATE).size());
    }

    @Test
    void instancesDeletedByEvictionAreReplacedByRaisingTheCapacity() throws Exception {
        String rg = "rg-delete";
        arm.resourceGroup(rg, "westeurope", Map.of("TOTAL_NODES", "4"));
        arm.scaleSet(ScaleSetSpec.uniform(rg, "del").spot("Delete").instances(4, PowerState.RUNNING));
        Path config = config(rg, "del", "pool.render.azure.allowCreate = true");
        ScalerCommandLine.once(config);
        arm.state().evict(rg, "del", "0");
        arm.state().evict(rg, "del", "1");
        assertEquals(2, active(rg, "del"));

        String replaced = ScalerCommandLine.once(config);

        assertEquals(4, active(rg, "del"), replaced);
        assertEquals(1, requests(rg, RequestKind.PATCH_CAPACITY).size(), "one minimal capacity PATCH");
    }

    @Test
    void setCapacityRefusesADemandPoolAndACountAboveMax() throws Exception {
        String rg = "rg-refuse";
        arm.resourceGroup(rg, "westeurope", Map.of());
        Path config = config(rg, "none");
        ScalerCommandLine.Run above = cli("set-capacity", "render", "9", "--config", config.toString());
        assertEquals(1, above.code());
        assertTrue(above.output().contains("more than pool.render.max = 8"), above.output());
        ScalerCommandLine.Run unknown = cli("set-capacity", "nosuch", "1", "--config", config.toString());
        assertTrue(unknown.output().contains("no pool nosuch is configured"), unknown.output());
    }

    @Test
    void aTargetTagThatIsNotACountStartsNothingAndSaysSo() throws Exception {
        String rg = "rg-bad";
        arm.resourceGroup(rg, "westeurope", Map.of("total_nodes", "lots"));
        arm.scaleSet(ScaleSetSpec.uniform(rg, "bad").instances(2, PowerState.DEALLOCATED));
        String output = ScalerCommandLine.once(config(rg, "bad"));
        assertEquals(0, requests(rg, RequestKind.START).size());
        assertTrue(output.contains("'lots', not a count"), output);
    }
}
