package io.hpcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.cloud.azure.AzureClients;
import io.hpcscale.cloud.azure.AzureCloudModule;
import io.hpcscale.cloud.azure.FakeArmServer;
import io.hpcscale.cloud.azure.PacedFakeArm;
import io.hpcscale.cloud.azure.TestPace;
import io.hpcscale.cloud.azure.fake.ComputeBuckets;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.Fault;
import io.hpcscale.cloud.azure.fake.Instance;
import io.hpcscale.cloud.azure.fake.MutableClock;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.RequestKind;
import io.hpcscale.cloud.azure.fake.RequestLog;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import io.hpcscale.cloud.azure.fake.StandbyPool;
import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import io.hpcscale.scaler.Programs;
import io.hpcscale.scaler.documents.EventDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scaler against the fake Resource Manager answering as Azure does, as an administrator runs it: the service's
 * own turn ({@code ScalerRuntime.serviceCycle}, what {@code hpcscale-scaler run} repeats) on the test's clock so
 * that half an hour passes in seconds, and the real {@code once}, {@code status} and {@code events} commands. The
 * agent's side is {@link AzureAgentImitation}.
 */
@ExtendWith(FakeArmServer.class)
class AzureThroughTheScalerTest {
    private static final AtomicInteger GROUPS = new AtomicInteger();

    @TempDir
    Path dir;

    private final FakeArm arm = FakeArmServer.arm();
    private final String rg = "rg-scaler-" + GROUPS.incrementAndGet();
    private PacedFakeArm paced;
    private MutableClock clock;
    private TestPace pace;

    @BeforeEach
    void oneClock() {
        paced = new PacedFakeArm(arm, rg);
        clock = paced.clock();
        pace = paced.pace();
        arm.settings().bootDelay(Duration.ofMinutes(2)).stopDelay(Duration.ofMinutes(1));
    }

    @AfterEach
    void restoreTheSharedFake() {
        paced.close();
    }

    private Settings settings(String pool, String scaleSet, String... more) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("store.sqlite.path", dir.resolve("clusterload.db").toString());
        values.put("azure.cloud", "custom");
        values.put("azure.resourceManagerEndpoint", arm.baseUrl() + "/");
        values.put("azure.subscriptionId", arm.subscriptionId());
        values.put("pool." + pool + ".provider", "azure");
        values.put("pool." + pool + ".max", "1000");
        values.put("pool." + pool + ".idleTimeout", "5m");
        values.put("pool." + pool + ".azure.resourceGroup", rg);
        values.put("pool." + pool + ".azure.scaleSet", scaleSet);
        for (int i = 0; i + 1 < more.length; i += 2) {
            values.put(more[i], more[i + 1]);
        }
        return new ConfigLoader(ConfigCatalog.installed()).fromMap(values, Programs.SCALER);
    }

    /** The same settings as a file for the real commands, which read the configuration from disk. */
    private Path configFile(String pool, String scaleSet, String... more) throws java.io.IOException {
        List<String> lines = new ArrayList<>(List.of(
                "store.sqlite.path = " + dir.resolve("clusterload.db"),
                "azure.cloud = custom",
                "azure.resourceManagerEndpoint = " + arm.baseUrl() + "/",
                "azure.subscriptionId = " + arm.subscriptionId(),
                "pool." + pool + ".provider = azure",
                "pool." + pool + ".azure.resourceGroup = " + rg,
                "pool." + pool + ".azure.scaleSet = " + scaleSet));
        for (int i = 0; i + 1 < more.length; i += 2) {
            lines.add(more[i] + " = " + more[i + 1]);
        }
        return Files.write(dir.resolve("hpcscale.properties"), lines);
    }

    private ScalerRuntime runtime(Settings settings) {
        return ScalerRuntime.start(settings, clock, List.of(new AzureCloudModule(azure -> new AzureClients(azure, null,
                pace))));
    }

    private List<RequestLog.Entry> ours() {
        return paced.requests();
    }

    private List<EventDocument> events() {
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(dir.resolve("clusterload.db"),
                Duration.ofSeconds(5), Clock.systemUTC())) {
            return new DocumentStore(store).all(DocumentType.EVENTS, EventDocument.class);
        }
    }

    /** Runs the service's turns for {@code span}, the agent stepping every 10 s between them. */
    private void run(ScalerRuntime runtime, AzureAgentImitation agent, Duration span) throws Exception {
        Instant end = clock.instant().plus(span);
        Instant next = clock.instant();
        while (clock.instant().isBefore(end)) {
            agent.step();
            if (!clock.instant().isBefore(next)) {
                next = runtime.serviceCycle(clock.instant());
            }
            clock.advance(Duration.ofSeconds(10));
        }
    }

    @Test
    void aThousandInstanceScaleSetRunsHalfAnHourOfJobsWithoutOneThrottledAnswer() throws Exception {
        arm.scaleSet(ScaleSetSpec.uniform(rg, "big").computerNamePrefix("big").instances(1000,
                PowerState.DEALLOCATED));
        AzureAgentImitation agent = new AzureAgentImitation(arm, rg, "big", "big", dir.resolve("clusterload.db"),
                clock);
        agent.submit(300, Duration.ofMinutes(8));

        try (ScalerRuntime runtime = runtime(settings("big", "big"))) {
            run(runtime, agent, Duration.ofMinutes(30));
        }

        Map<RequestKind, Integer> byKind = new EnumMap<>(RequestKind.class);
        ours().forEach(e -> byKind.merge(e.kind(), 1, Integer::sum));
        long throttled = ours().stream().filter(e -> e.status() == 429).count();
        Map<String, long[]> buckets = arm.buckets().counts();
        StringBuilder report = new StringBuilder("1000-instance Uniform scale set, 300 jobs of 8 minutes, 30 "
                + "simulated minutes of hpcscale-scaler run: requests by kind " + byKind + "; by Compute bucket:");
        buckets.forEach((bucket, counts) -> report.append(' ').append(bucket).append(' ').append(counts[0])
                .append(" spent/").append(counts[1]).append(" refused;"));
        report.append(" throttled answers ").append(throttled);
        System.out.println(report);

        assertEquals(300, agent.jobsRun(), "every job ran: " + report);
        assertEquals(0, agent.stoppedUnderAJob(), "no instance stopped under a job");
        assertEquals(0, throttled, report.toString());
        assertTrue(buckets.get(ComputeBuckets.LIST_30_MIN.name())[0] <= ComputeBuckets.LIST_30_MIN.capacity() / 2,
                report.toString());
        long running = arm.state().scaleSet(rg, "big").orElseThrow().instances().stream()
                .filter(i -> i.powerState() != PowerState.DEALLOCATED).count();
        assertEquals(0, running, "idle nodes drained and deallocated by the end: " + report);
    }

    @Test
    void aTwentyMinuteRetryAfterIsAnEventAndAStatusLineAndTheScalerCarriesOnAfterIt() throws Exception {
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").computerNamePrefix("hb").instances(10, PowerState.DEALLOCATED));
        AzureAgentImitation agent = new AzureAgentImitation(arm, rg, "hb", "hb", dir.resolve("clusterload.db"),
                clock);
        agent.step();
        arm.faults().inject("GET", "/resourceGroups/" + rg + "/providers/Microsoft.Compute/virtualMachineScaleSets/hb"
                + "/virtualMachines$", 1, Fault.tooManyRequests(1200));
        Settings settings = settings("hb", "hb");
        Path config = configFile("hb", "hb", "pool.hb.max", "10");

        try (ScalerRuntime runtime = runtime(settings)) {
            runtime.serviceCycle(clock.instant());
            agent.submit(4, Duration.ofMinutes(30));
            agent.step();
            ScalerCommandLine.Run status = ScalerCommandLine.run("status", "--config", config.toString());
            List<EventDocument> throttledEvents = events().stream().filter(e -> e.action().equals("throttled"))
                    .toList();
            run(runtime, agent, Duration.ofMinutes(19));
            int startsWhileThrottled = (int) ours().stream().filter(e -> e.kind() == RequestKind.START).count();
            run(runtime, agent, Duration.ofMinutes(4));

            assertEquals(1, throttledEvents.size(), events().toString());
            String reason = throttledEvents.get(0).reason();
            assertTrue(reason.contains("Compute budget HighCostGetVMScaleSet30Min, spent until ")
                    && reason.contains("next call after"), reason);
            assertTrue(status.output().contains("the cloud asked not to be called until")
                    && status.output().contains("HighCostGetVMScaleSet30Min"), status.output());
            assertFalse(status.output().contains("0 stopped"), "never read as no instances: " + status.output());
            assertEquals(0, startsWhileThrottled, "the subscription is left alone for the 20 minutes");
            assertEquals(4, agent.jobsRun(), "and served once they are over");
        }
    }

    @Test
    void aFlexiblePoolOf120VmsIsListedWholeAndScaledByOnce() throws Exception {
        arm.settings().bootDelay(Duration.ZERO);
        arm.scaleSet(ScaleSetSpec.flexible(rg, "fx").sku("Standard_HB120rs_v3").computerNamePrefix("fx")
                .instances(120, PowerState.DEALLOCATED));
        AzureAgentImitation agent = new AzureAgentImitation(arm, rg, "fx", "fx", dir.resolve("clusterload.db"),
                clock);
        agent.submit(110, Duration.ofHours(1));
        agent.step();
        Path config = configFile("fx", "fx", "pool.fx.max", "120", "pool.fx.maxStartPerCycle", "120");

        String once = ScalerCommandLine.once(config);

        long active = arm.state().scaleSet(rg, "fx").orElseThrow().instances().stream()
                .filter(i -> i.powerState() == PowerState.RUNNING || i.powerState() == PowerState.STARTING).count();
        assertEquals(110, active, once);
        assertEquals(3, ours().stream().filter(e -> e.kind() == RequestKind.LIST).count(), "all three pages");
        assertEquals(0, ours().stream().filter(e -> e.kind() == RequestKind.OPERATION_POLL).count(),
                "110 starts sent, none waited for");
        assertEquals(1, events().stream().filter(e -> e.action().equals("start")).count(),
                "one event for the starts sent together: " + events());
    }

    @Test
    void aFlexiblePoolGrowsFromTheStandbyPoolTheScalerKeepsBesideIt() throws Exception {
        arm.scaleSet(ScaleSetSpec.flexible(rg, "fx").sku("Standard_HB120rs_v3").computerNamePrefix("fx")
                .instances(0, PowerState.DEALLOCATED));
        AzureAgentImitation agent = new AzureAgentImitation(arm, rg, "fx", "fx", dir.resolve("clusterload.db"),
                clock);
        agent.submit(4, Duration.ofMinutes(8));
        Settings settings = settings("fx", "fx", "pool.fx.max", "10", "pool.fx.stopAction", "delete",
                "pool.fx.azure.allowCreate", "true", "pool.fx.azure.standbyPool", "fx-standby",
                "pool.fx.azure.standbyPoolSize", "4");

        try (ScalerRuntime runtime = runtime(settings)) {
            run(runtime, agent, Duration.ofMinutes(20));
            agent.submit(4, Duration.ofMinutes(8));
            run(runtime, agent, Duration.ofMinutes(20));
        }

        StandbyPool standby = arm.standbyPools().get(rg, "fx-standby").orElseThrow();
        assertEquals(8, agent.jobsRun(), events().toString());
        assertEquals(0, agent.stoppedUnderAJob());
        assertEquals(4, standby.handedOut(), "the first wave's VMs were made before the standby pool, the second's "
                + "came from it");
        assertTrue(events().stream().anyMatch(e -> e.action().equals("tidy")
                && e.reason().startsWith("created standby pool fx-standby")), events().toString());
        assertEquals(1, ours().stream().filter(e -> e.method().equals("PUT")
                && e.path().contains("standbyVirtualMachinePools")).count(), "created once, then only read");
    }

    @Test
    void oddStatesAreNeitherStartedNorTimedAndAFailedVmIsReported() throws Exception {
        arm.settings().bootDelay(Duration.ZERO);
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").computerNamePrefix("hb").instances(5, PowerState.DEALLOCATED));
        arm.state().makeOdd(rg, "hb", "0", Instance.Oddity.DELETING, null);
        arm.state().setPowerState(rg, "hb", "1", PowerState.RUNNING);
        arm.state().makeOdd(rg, "hb", "1", Instance.Oddity.POWER_UNKNOWN, null);
        arm.state().makeOdd(rg, "hb", "2", Instance.Oddity.FAILED_WITHOUT_POWER, "OSProvisioningTimedOut");
        AzureAgentImitation agent = new AzureAgentImitation(arm, rg, "hb", "hb", dir.resolve("clusterload.db"),
                clock);
        agent.submit(5, Duration.ofHours(1));
        agent.step();
        Path config = configFile("hb", "hb", "pool.hb.max", "5");

        String once = ScalerCommandLine.once(config);
        ScalerCommandLine.Run status = ScalerCommandLine.run("status", "--config", config.toString());

        List<RequestLog.Entry> starts = ours().stream().filter(e -> e.kind() == RequestKind.START).toList();
        assertEquals(1, starts.size(), once);
        assertTrue(starts.get(0).body().contains("\"instanceIds\":[\"3\",\"4\"]"),
                "neither the VM being deleted, nor the unknown one, nor the failed one: " + starts.get(0).body());
        assertTrue(events().stream().anyMatch(e -> e.action().equals("failed-vm")
                && e.reason().contains("OSProvisioningTimedOut")), events().toString());
        assertTrue(status.output().contains("1 failed") && status.output().contains("1 unknown")
                && status.output().contains("1 stopping"), status.output());
    }
}
