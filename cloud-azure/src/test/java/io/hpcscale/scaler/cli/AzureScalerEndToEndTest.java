package io.hpcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import io.hpcscale.cloud.azure.FakeArmServer;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.RequestKind;
import io.hpcscale.cloud.azure.fake.RequestLog;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scaler as an administrator runs it ({@code hpcscale-scaler once --config ...}) with the azure provider: the
 * production credential and management SDK against the fake Resource Manager, the documents in a SQLite file that the
 * test writes as the agent would. Queued jobs start exactly the instances they need in one call; once their nodes
 * idle they are drained, and once the agent shows them offline and empty they are deallocated in one call.
 */
@ExtendWith(FakeArmServer.class)
class AzureScalerEndToEndTest {
    private static final String RG = "rg-e2e";

    @TempDir
    Path dir;

    private final FakeArm arm = FakeArmServer.arm();

    private static String once(Path config) {
        return ScalerCommandLine.once(config);
    }

    private void asTheAgent(Consumer<DocumentStore> write) {
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(dir.resolve("clusterload.db"),
                Duration.ofSeconds(5), Clock.systemUTC())) {
            DocumentStore documents = new DocumentStore(store);
            write.accept(documents);
            Instant now = Instant.now();
            documents.upsert(List.of(new AgentDocument("agent-head-pbs", "pbs", "head", "test", now, 1,
                    List.of("hb"), null, now, now)));
        }
    }

    private static VmDocument node(String name, List<String> jobs, boolean offline, Instant lastBusyAt,
            Instant drainRequestedAt) {
        return new VmDocument(name, "hb", name, jobs.isEmpty() ? NodeJobStatus.Free : NodeJobStatus.Busy,
                offline ? "offline" : jobs.isEmpty() ? "free" : "job-exclusive", offline, offline, false, false, 120,
                jobs.isEmpty() ? 0 : 120, 440000, 0, 0, 0, jobs, lastBusyAt, Instant.now(), drainRequestedAt,
                "agent-head-pbs");
    }

    private List<RequestLog.Entry> requests(RequestKind kind) {
        return arm.log().entries(kind).stream().filter(e -> e.path().contains("/resourceGroups/" + RG + "/"))
                .toList();
    }

    @Test
    void queuedJobsStartExactlyTheirInstancesInOneCallAndIdleNodesAreDrainedThenDeallocatedInOne() throws Exception {
        arm.resourceGroup(RG, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(RG, "hb").computerNamePrefix("hb").instances(6,
                PowerState.DEALLOCATED));
        Path config = dir.resolve("hpcscale.properties");
        List<String> settings = AzureCommandLine.settings(arm, dir);
        settings.addAll(List.of(
                "pool.hb.provider = azure",
                "pool.hb.max = 6",
                "pool.hb.idleTimeout = 1m",
                "pool.hb.azure.resourceGroup = " + RG,
                "pool.hb.azure.scaleSet = hb"));
        Files.write(config, settings);
        asTheAgent(documents -> {
            List<JobDocument> jobs = new ArrayList<>();
            for (String id : List.of("101.pbs", "102.pbs")) {
                jobs.add(new JobDocument(id, "hb", id, "workq", JobState.Queued, 1, List.of(new Chunk(1, 120,
                        400000, 0)), Placement.free, true, Instant.now(), "agent-head-pbs"));
            }
            documents.upsert(jobs);
        });

        String started = once(config);

        List<RequestLog.Entry> starts = requests(RequestKind.START);
        assertEquals(1, starts.size(), "one call for both: " + started);
        assertTrue(starts.get(0).body().contains("\"instanceIds\":[\"0\",\"1\"]"), starts.get(0).body());
        assertEquals(PowerState.RUNNING, arm.state().instance(RG, "hb", "0").powerState());
        assertEquals(PowerState.DEALLOCATED, arm.state().instance(RG, "hb", "2").powerState());

        Instant longAgo = Instant.now().minus(Duration.ofMinutes(5));
        asTheAgent(documents -> {
            documents.delete(List.of(new DocumentKey("hb", "101.pbs"), new DocumentKey("hb", "102.pbs")));
            documents.upsert(List.of(node("hb000000", List.of(), false, longAgo, null),
                    node("hb000001", List.of(), false, longAgo, null)));
        });
        String drained = once(config);
        List<DrainDocument> drains = new ArrayList<>();
        asTheAgent(documents -> drains.addAll(documents.all(DocumentType.DRAINS, DrainDocument.class)));
        assertEquals(List.of("hb000000", "hb000001"), drains.stream().map(DrainDocument::name).sorted().toList(),
                drained);
        assertEquals(0, requests(RequestKind.DEALLOCATE).size(), "never stopped on a free flag alone");

        asTheAgent(documents -> documents.upsert(drains.stream().map(d -> node(d.name(), List.of(), true, longAgo,
                d.requestedAt())).toList()));
        String stopped = once(config);

        List<RequestLog.Entry> deallocations = requests(RequestKind.DEALLOCATE);
        assertEquals(1, deallocations.size(), "one call for both: " + stopped);
        assertTrue(deallocations.get(0).body().contains("\"instanceIds\":[\"0\",\"1\"]"),
                deallocations.get(0).body());
        assertEquals(PowerState.DEALLOCATED, arm.state().instance(RG, "hb", "0").powerState());
        assertEquals(PowerState.DEALLOCATED, arm.state().instance(RG, "hb", "1").powerState());
        assertEquals(0, requests(RequestKind.GET_INSTANCE).size(), "never one GET per instance");
    }
}
