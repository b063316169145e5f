package io.hpcscale.agent.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hpcscale.cloud.azure.FakeArmServer;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.Instance;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.RequestKind;
import io.hpcscale.cloud.azure.fake.ScaleSet;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import io.hpcscale.scaler.plan.EventKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Slurm whose nodes are the instances of a scale set on the fake Azure Resource Manager: an instance the
 * scaler starts through the azure provider brings its node's slurmd up, one it deallocates takes it down. The real
 * agent and the real scaler with the production credential and SDK; each slurmd's node is named by an instance tag.
 */
@ExtendWith(FakeArmServer.class)
class SlurmOnAzureEndToEndTest {
    private static final String RG = "rg-slurm";
    private static final int NODES = 3;

    @TempDir
    Path dir;

    private final FakeArm arm = FakeArmServer.arm();

    @BeforeEach
    void needsRoot() throws IOException {
        RealSlurm.assumeAvailable("real-Slurm on Azure end-to-end test", dir);
    }

    /** Keeps each node's slurmd in step with its instance's power state, as a VM's boot and shutdown would. */
    private static void follow(ScaleSet scaleSet, RealSlurm slurm, Path dir) {
        try {
            List<String> running = slurm.runningNodes();
            for (Instance instance : scaleSet.instances()) {
                String node = instance.tags().get("slurm-node");
                boolean up = instance.powerState() == PowerState.RUNNING;
                if (up != running.contains(node)) {
                    new ProcessBuilder(RealSlurm.SCRIPT.toString(), up ? "node-start" : "node-stop", dir.toString(),
                            node).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
                            .waitFor(60, TimeUnit.SECONDS);
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void startsTheFakesInstancesForSbatchedJobsAndDeallocatesThemDrained() throws Exception {
        arm.resourceGroup(RG, "westeurope", Map.of());
        ScaleSet scaleSet = arm.scaleSet(ScaleSetSpec.uniform(RG, "batch").sku("Standard_D4s_v5")
                .instances(NODES, PowerState.DEALLOCATED));
        for (Instance instance : scaleSet.instances()) {
            instance.tags().put("slurm-node", "node" + (Integer.parseInt(instance.instanceId()) + 1));
        }
        Path slurmDir = dir.resolve("slurm");
        try (RealSlurm slurm = RealSlurm.start(slurmDir, "--static", Integer.toString(NODES))) {
            ScheduledExecutorService power = Executors.newSingleThreadScheduledExecutor();
            power.scheduleWithFixedDelay(() -> follow(scaleSet, slurm, slurmDir), 0, 300, TimeUnit.MILLISECONDS);
            Path config = dir.resolve("hpcscale.properties");
            Files.write(config, List.of(
                    "store.sqlite.path = " + dir.resolve("clusterload.db"),
                    "agent.host = head",
                    "agent.commandTimeout = 20s",
                    "agent.slurm.slurmConf = " + slurm.slurmConf(),
                    "scaler.staleAfter = 1m",
                    "azure.cloud = custom",
                    "azure.resourceManagerEndpoint = " + arm.baseUrl() + "/",
                    "azure.subscriptionId = " + arm.subscriptionId(),
                    "pool.batch.provider = azure",
                    "pool.batch.max = " + NODES,
                    "pool.batch.idleTimeout = 20s",
                    "pool.batch.cpus = 4",
                    "pool.batch.memoryMb = 8000",
                    "pool.batch.azure.resourceGroup = " + RG,
                    "pool.batch.azure.scaleSet = batch",
                    "pool.batch.azure.nodeName = tag:slurm-node"));
            try (SlurmServices services = new SlurmServices(dir, config)) {
                List<String> jobs = new ArrayList<>();
                jobs.add(slurm.sbatch("-N", "2", "--exclusive", "--wrap", "sleep 10"));
                jobs.add(slurm.sbatch("-N", "1", "-c", "4", "--wrap", "sleep 5"));

                services.until(slurm, Duration.ofMinutes(4), "every job completed", () -> {
                    Map<String, JsonNode> known = slurm.jobs();
                    return jobs.stream().allMatch(id -> known.containsKey(id)
                            && known.get(id).path("job_state").asText().equals("COMPLETED"));
                });
                services.until(slurm, Duration.ofMinutes(3), "every instance deallocated",
                        () -> scaleSet.instances().stream().allMatch(i -> i.powerState() == PowerState.DEALLOCATED)
                                && slurm.runningNodes().isEmpty());

                assertEquals(NODES, services.count(EventKind.START));
                assertEquals(NODES, services.count(EventKind.DRAIN));
                assertEquals(NODES, services.count(EventKind.STOP));
                assertEquals(List.of(), slurm.violations(), "a node was stopped while Slurm had a job on it");
                long starts = arm.log().count(e -> e.kind() == RequestKind.START && e.path().contains(RG));
                long deallocations = arm.log().count(e -> e.kind() == RequestKind.DEALLOCATE
                        && e.path().contains(RG));
                assertTrue(starts <= 2 && deallocations <= NODES, "batched calls: " + starts + " start and "
                        + deallocations + " deallocate requests for " + NODES + " instances");
                System.out.printf("real Slurm on the fake Azure: %d instances started in %d calls, drained, and "
                        + "deallocated in %d calls; %d ARM requests in all%n", NODES, starts, deallocations,
                        arm.log().count(e -> e.path().contains(RG)));
            } finally {
                power.shutdownNow();
            }
        }
    }
}
