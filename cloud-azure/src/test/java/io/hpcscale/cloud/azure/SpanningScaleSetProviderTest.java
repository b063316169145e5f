package io.hpcscale.cloud.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.MutableClock;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import io.hpcscale.cloud.azure.fake.ScaleSetTemplates;
import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.cloud.CallGate;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.CreateResult;
import io.hpcscale.scaler.documents.GrowthAsked;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A pool over several scale sets, through the real SDK against the fake Resource Manager, on a settable clock. */
@ExtendWith(FakeArmServer.class)
class SpanningScaleSetProviderTest {
    private static final String RG = "rg-spanning";

    private final FakeArm arm = FakeArmServer.arm();
    private final TestPace pace = new TestPace(new MutableClock(Instant.parse("2026-11-22T12:00:00Z")));

    @TempDir
    Path dir;

    private CloudProvider provider() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("pool.p.provider", "azure");
        values.put("pool.p.max", "100");
        values.put("pool.p.azure.resourceGroup", RG);
        values.put("pool.p.azure.scaleSet", "tm");
        values.put("pool.p.azure.allowCreate", "true");
        values.put("pool.p.azure.vmsPerScaleSet", "4");
        values.put("pool.p.azure.sealAfter", "10m");
        values.put("pool.p.azure.template", ScaleSetTemplates.write(ScaleSetSpec.uniform(RG, "tm"),
                dir.resolve("tm.json")).toString());
        Settings settings = FakeArmServer.settings(values);
        return new AzureProviders(new AzureClients(AzureSettings.from(settings), null, pace), CallGate.ALWAYS_OPEN, false)
                .forPool(settings.pool("p"));
    }

    @Test
    void aScaleSetStillShortOfWhatItWasAskedAfterSealAfterIsSealedAndANewOneTakesTheRest() throws Exception {
        arm.resourceGroup(RG, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(RG, "tm").computerNamePrefix("tm").instances(2, PowerState.RUNNING));
        CloudProvider provider = provider();
        provider.list();
        assertEquals(2, provider.create(2).created().size());
        for (String id : List.of("2", "3")) {
            arm.state().setPowerState(RG, "tm", id, PowerState.DEALLOCATED);
        }

        pace.mutableClock().advance(Duration.ofMinutes(5));
        provider.list();
        CreateResult early = provider.create(2);
        assertTrue(early.sealed().isEmpty(), "within sealAfter a short scale set is given time");
        assertEquals(2, arm.state().scaleSet(RG, "tm-2").orElseThrow().instances().size(),
                "tm has 4 of 4 instances: the 2 asked go to a new scale set");

        pace.mutableClock().advance(Duration.ofMinutes(6));
        provider.list();
        CreateResult late = provider.create(2);

        assertEquals(List.of("tm"), late.sealed().stream().map(CreateResult.Sealing::scaleSet).toList());
        assertTrue(late.sealed().get(0).reason().contains("runs 2"), late.sealed().get(0).reason());
        assertEquals(4, arm.state().scaleSet(RG, "tm-2").orElseThrow().instances().size(),
                "tm-2, still open, takes them");
        assertTrue(arm.state().scaleSet(RG, "tm").orElseThrow().model().path("tags").has("hpcscale-sealed"));
    }

    @Test
    void aGrowthAskedBeforeARestartIsTimedByTheRestartedProviderFromWhatTheStateKept() throws Exception {
        arm.resourceGroup(RG, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(RG, "tm").computerNamePrefix("tm").instances(2, PowerState.RUNNING));
        CloudProvider before = provider();
        before.list();
        before.create(2);
        Map<String, GrowthAsked> kept = before.growing();
        assertEquals(Map.of("tm", new GrowthAsked(pace.mutableClock().instant(), 4)), kept,
                "what the scaler writes to the pool's state after the create");
        for (String id : List.of("2", "3")) {
            arm.state().setPowerState(RG, "tm", id, PowerState.DEALLOCATED);
        }

        pace.mutableClock().advance(Duration.ofMinutes(11));
        CloudProvider restarted = provider();
        restarted.recall(kept);
        restarted.list();
        CreateResult late = restarted.create(2);

        assertEquals(List.of("tm"), late.sealed().stream().map(CreateResult.Sealing::scaleSet).toList(),
                "short 11 minutes after it was asked, though this provider never asked it");
    }

    @Test
    void aGrowthSeenRunningWhatItAskedIsForgottenSoAScaleInLaterSealsNothing() throws Exception {
        arm.resourceGroup(RG, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(RG, "tm").computerNamePrefix("tm").instances(2, PowerState.RUNNING));
        CloudProvider provider = provider();
        provider.list();
        provider.create(2);
        provider.list();
        assertEquals(Map.of(), provider.growing(), "4 of 4 run: the growth is done, nothing left to time");

        for (String id : List.of("2", "3")) {
            arm.state().setPowerState(RG, "tm", id, PowerState.DEALLOCATED);
        }
        pace.mutableClock().advance(Duration.ofMinutes(11));
        CloudProvider restarted = provider();
        restarted.recall(provider.growing());
        restarted.list();
        assertTrue(restarted.create(2).sealed().isEmpty(), "stopped by the scaler since, not short of capacity");
    }
}
