package io.hpcscale.scaler.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.model.CosmosIds;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.scaler.Programs;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Instances someone else started in the pool's scale set, whose nodes no agent reports: said as orphans once they
 * have run orphanAfter, stopped only where the pool says so, and never one whose node an agent reports.
 */
class OrphansTest {
    private final ScalerFixture fixture = new ScalerFixture();
    private final DocumentStore documents = new DocumentStore(fixture.memory);

    private PoolConfig pool(boolean stop) {
        return pool(stop, 0);
    }

    private PoolConfig pool(boolean stop, int min) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("pool.farm.min", Integer.toString(min));
        values.put("pool.farm.provider", "simulated");
        values.put("pool.farm.cpus", "16");
        values.put("pool.farm.memoryMb", "65536");
        values.put("pool.farm.max", "4");
        values.put("pool.farm.simulated.bootDelay", "1m");
        values.put("pool.farm.bootTimeout", "5m");
        values.put("pool.farm.orphanAfter", "10m");
        values.put("pool.farm.stopOrphans", Boolean.toString(stop));
        return PoolConfigs.fromSettings(new ConfigLoader(ConfigCatalog.installed()).fromMap(values, Programs.SCALER))
                .get("farm");
    }

    /**
     * Someone starts two instances of the scale set by hand, running by the time the scaler looks again (one it found
     * starting would be timed as a boot instead); only the second's node joins the scheduler.
     */
    private List<Instance> startedByHand(Scaler scaler) throws Exception {
        fixture.agentReported("farm");
        scaler.runOnce(fixture.clock.instant());
        List<Instance> stopped = fixture.cloud.instances("farm").stream()
                .filter(i -> i.state() == PowerState.STOPPED).limit(2).toList();
        fixture.cloud.provider("farm").start(stopped);
        fixture.clock.advance(Duration.ofMinutes(2));
        return stopped;
    }

    private void minutes(Scaler scaler, int minutes, String reportedNode) throws Exception {
        for (int i = 0; i < minutes; i++) {
            if (fixture.cloud.upNodes("farm").contains(reportedNode)) {
                documents.upsert(List.of(new VmDocument(CosmosIds.encode(reportedNode), "farm", reportedNode,
                        NodeJobStatus.Busy, "job-busy", false, false, false, false, 16, 16, 65536, 0, 0, 0,
                        List.of("7.pbs"), fixture.clock.instant(), fixture.clock.instant(), null, "agent-h-pbs")));
            }
            fixture.agentReported("farm");
            scaler.runOnce(fixture.clock.instant());
            fixture.clock.advance(Duration.ofMinutes(1));
        }
    }

    @Test
    void anInstanceNoAgentReportsIsSaidToBeAnOrphanAndLeftRunningByDefault() throws Exception {
        fixture.cloud.addScaleSet("farm", 4, "farm", Duration.ofMinutes(1));
        Scaler scaler = fixture.scaler(fixture.memory, false, pool(false));
        List<Instance> byHand = startedByHand(scaler);

        minutes(scaler, 9, byHand.get(1).nodeName());
        assertTrue(fixture.eventsOf(EventKind.ORPHAN).isEmpty(), "not yet orphanAfter");
        minutes(scaler, 3, byHand.get(1).nodeName());

        List<ScalerEvent> orphans = fixture.eventsOf(EventKind.ORPHAN);
        assertTrue(orphans.stream().allMatch(e -> e.reason().startsWith("instance " + byHand.get(0).id())), orphans
                .toString());
        assertTrue(!orphans.isEmpty());
        assertEquals(2, fixture.active("farm"), "reported, not stopped");
        PoolCensus census = scaler.planOnly(fixture.clock.instant()).pools().get(0).census();
        assertEquals(1, census.orphans().size(), "a status line for it");
    }

    /**
     * Found starting, an instance is timed as a boot; one hpcscale did not start whose node never reports is not a
     * failed boot of the pool (which would count towards its protection) but, past its boot timeout, an orphan.
     */
    @Test
    void anInstanceFoundStartingWhoseNodeNeverReportsIsAnOrphanNotAFailedBoot() throws Exception {
        fixture.cloud.addScaleSet("farm", 4, "farm", Duration.ofMinutes(1));
        Scaler scaler = fixture.scaler(fixture.memory, false, pool(false));
        fixture.agentReported("farm");
        scaler.runOnce(fixture.clock.instant());
        Instance byHand = fixture.cloud.instances("farm").get(0);
        fixture.cloud.provider("farm").start(List.of(byHand));
        fixture.agentReported("farm");
        scaler.runOnce(fixture.clock.instant());

        minutes(scaler, 14, "none");

        assertTrue(fixture.eventsOf(EventKind.BOOT_TIMEOUT).isEmpty(), fixture.eventsOf(EventKind.BOOT_TIMEOUT)
                .toString());
        assertEquals(0, fixture.state("farm").consecutiveBootFailures(), "no failed boot counted");
        assertEquals(1, fixture.active("farm"), "left running: stopOrphans is false");
        assertTrue(fixture.eventsOf(EventKind.ORPHAN).stream().anyMatch(e -> e.reason().startsWith("instance "
                + byHand.id())), fixture.eventsOf(EventKind.ORPHAN).toString());
    }

    @Test
    void anOrphanDoesNotCountTowardsThePoolsMinSinceNoJobCanLandOnIt() throws Exception {
        fixture.cloud.addScaleSet("farm", 4, "farm", Duration.ofMinutes(1));
        Instance byHand = fixture.cloud.instances("farm").get(0);
        fixture.cloud.provider("farm").start(List.of(byHand));
        fixture.clock.advance(Duration.ofMinutes(2));
        Scaler scaler = fixture.scaler(fixture.memory, false, pool(false, 1));

        minutes(scaler, 3, "none");

        assertEquals(2, fixture.active("farm"), "one started for the min beside the one no agent reports");
    }

    @Test
    void aPoolThatStopsOrphansStopsThemAndNeverAnInstanceWhoseNodeAnAgentReports() throws Exception {
        fixture.cloud.addScaleSet("farm", 4, "farm", Duration.ofMinutes(1));
        Scaler scaler = fixture.scaler(fixture.memory, false, pool(true));
        List<Instance> byHand = startedByHand(scaler);

        minutes(scaler, 12, byHand.get(1).nodeName());

        List<Instance> active = fixture.cloud.instances("farm").stream().filter(i -> i.state().active()).toList();
        assertEquals(List.of(byHand.get(1).id()), active.stream().map(Instance::id).toList(),
                "the orphan stopped; the instance whose node runs a job kept");
        assertTrue(fixture.eventsOf(EventKind.STOP).stream().anyMatch(e -> e.reason().contains("an orphan, stopped")));
    }
}
