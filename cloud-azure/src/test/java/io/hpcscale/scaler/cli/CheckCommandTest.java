package io.hpcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import io.hpcscale.cloud.azure.FakeArmServer;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import io.hpcscale.cloud.azure.fake.ScaleSetTemplates;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code hpcscale-scaler check} through the real command line, the production credential and the management SDK
 * against the fake Resource Manager, with the store a SQLite file the test writes the agent's documents to.
 */
@ExtendWith(FakeArmServer.class)
class CheckCommandTest {
    private static final AtomicInteger GROUPS = new AtomicInteger();

    @TempDir
    Path dir;

    private final FakeArm arm = FakeArmServer.arm();
    private final String rg = "rg-check-" + GROUPS.incrementAndGet();

    private record Run(int exitCode, String out, String err) {
    }

    @AfterEach
    void resetTheFake() {
        arm.permissions().reset();
        arm.faults().clear();
    }

    private Run check(Path config) {
        CommandLine commandLine = ScalerMain.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int code = commandLine.execute("check", "--config", config.toString());
        return new Run(code, out.toString(), err.toString());
    }

    /** An azure pool "hb" on scale set {@code scaleSet} of this test's resource group, and {@code more} lines. */
    private Path config(String scaleSet, String... more) throws IOException {
        List<String> lines = new ArrayList<>(List.of(
                "store.sqlite.path = " + dir.resolve("clusterload.db"),
                "azure.cloud = custom",
                "azure.resourceManagerEndpoint = " + arm.baseUrl() + "/",
                "azure.subscriptionId = " + arm.subscriptionId(),
                "pool.hb.provider = azure",
                "pool.hb.max = 10",
                "pool.hb.azure.resourceGroup = " + rg,
                "pool.hb.azure.scaleSet = " + scaleSet));
        lines.addAll(List.of(more));
        Path file = dir.resolve("hpcscale.properties");
        Files.write(file, lines);
        return file;
    }

    private void agentReports(String pool, String... nodes) {
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(dir.resolve("clusterload.db"),
                Duration.ofSeconds(5), Clock.systemUTC())) {
            Instant now = Instant.now();
            List<VmDocument> documents = new ArrayList<>();
            for (String node : nodes) {
                documents.add(new VmDocument(node, pool, node, NodeJobStatus.Free, "free", false, false, false, false, 120,
                        0, 430000, 0, 0, 0, List.of(), null, now, null, "agent-head-pbs"));
            }
            new DocumentStore(store).upsert(documents);
            new DocumentStore(store).upsert(List.of(new AgentDocument("agent-head-pbs", "pbs", "head", "test", now,
                    1, List.of(pool), null, now, now)));
        }
    }

    private String groupScope() {
        return "/subscriptions/" + arm.subscriptionId() + "/resourceGroups/" + rg;
    }

    @Test
    void reportsEverythingOkForAHealthyPool() throws IOException {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(2, PowerState.RUNNING));
        agentReports("hb", "hb000000", "hb000001");

        Run run = check(config("hb"));

        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertFalse(run.out().contains("problem"), run.out());
        assertTrue(run.out().contains("pool hb (azure)")
                && run.out().contains("1. ok      signed in to Azure")
                && run.out().contains("Uniform, 2 instances of Standard_HB120rs_v3 in westeurope")
                && run.out().contains("the scaler plans each node as 120 CPUs")
                && run.out().contains("may perform each of the 4 actions pool hb needs")
                && run.out().contains("2 instances listed by Uniform scale set hb in resource group " + rg + ": 2 "
                        + "running")
                && run.out().contains("everything checked is ok"), run.out());
        assertEquals(0, arm.log().count(e -> e.kind().isWrite() && e.path().contains(rg)), "check only reads");
    }

    @Test
    void namesTheMissingActionScopeAndRoleWhenTheRoleIsMissing() throws IOException {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(2, PowerState.DEALLOCATED));
        arm.permissions().allowOnly("Microsoft.Compute/*/read");

        Run run = check(config("hb"));
        System.out.println("check with a read-only role:\n" + run.out());

        assertEquals(1, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("lacks 2 of the 4 actions pool hb needs")
                && run.out().contains("Microsoft.Compute/virtualMachineScaleSets/start/action on " + groupScope()
                        + "/providers/Microsoft.Compute/virtualMachineScaleSets/hb")
                && run.out().contains("Microsoft.Compute/virtualMachineScaleSets/deallocate/action")
                && run.out().contains("docs/security.md") && run.out().contains("on resource group " + rg)
                && run.out().contains("1 problem in pool hb"), run.out());
    }

    @Test
    void honoursWildcardsAndNotActionsAndTheStopActionAndGrowthSettings() throws IOException {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(1, PowerState.DEALLOCATED));
        arm.permissions().allowOnly("microsoft.compute/virtualMachineScaleSets/*", "Microsoft.Compute/skus/read")
                .deny("Microsoft.Compute/virtualMachineScaleSets/write", "*/deallocate/action");

        Run run = check(config("hb", "pool.hb.stopAction = powerOff", "pool.hb.azure.allowCreate = true"));

        assertEquals(1, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("lacks 1 of the 5 actions pool hb needs")
                && run.out().contains("Microsoft.Compute/virtualMachineScaleSets/write on")
                && run.out().contains("pool.hb.azure.allowCreate = true"), run.out());
        assertFalse(run.out().contains("deallocate"), "powerOff pools need no deallocate: " + run.out());
    }

    @Test
    void saysWhatTheScalerWillDoToTheStandbyPoolAndWhatItNeedsWithoutWritingIt() throws IOException {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.flexible(rg, "hb").instances(1, PowerState.RUNNING));
        arm.permissions().allowOnly("Microsoft.Compute/*", "Microsoft.StandbyPool/standbyVirtualMachinePools/read");
        agentReports("hb", arm.state().scaleSet(rg, "hb").orElseThrow().instances().get(0).computerName());

        Run run = check(config("hb", "pool.hb.stopAction = delete", "pool.hb.azure.allowCreate = true",
                "pool.hb.azure.standbyPool = hb-standby", "pool.hb.azure.standbyPoolSize = 6"));

        assertEquals(1, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("standby pool hb-standby of scale set hb in resource group " + rg + " does not "
                + "exist: the scaler creates it at its next cycle"), run.out());
        assertTrue(run.out().contains("Microsoft.StandbyPool/standbyVirtualMachinePools/write on " + groupScope())
                && run.out().contains("pool.hb.azure.standbyPool"), run.out());
        assertEquals(0, arm.log().count(e -> e.kind().isWrite() && e.path().contains(rg)), "check only reads");
    }

    @Test
    void anUnregisteredStandbyPoolProviderIsAProblemWithTheCommandThatRegistersIt() throws IOException {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.flexible(rg, "hb").instances(1, PowerState.RUNNING));
        arm.standbyPools().registered(false);
        try {
            Run run = check(config("hb", "pool.hb.azure.allowCreate = true", "pool.hb.azure.standbyPool = hb-standby",
                    "pool.hb.azure.standbyPoolState = running", "pool.hb.azure.standbyPoolSize = 2"));

            assertEquals(1, run.exitCode(), run.out() + run.err());
            assertTrue(run.out().contains("has not registered Microsoft.StandbyPool")
                    && run.out().contains("az provider register --namespace Microsoft.StandbyPool"), run.out());
            assertEquals(0, arm.log().count(e -> !e.method().equals("GET") && (e.path().contains("/resourceGroups/"
                    + rg + "/") || e.path().endsWith("/providers/Microsoft.StandbyPool/register"))),
                    "check only reads: the SDK never asked to register the provider itself");
        } finally {
            arm.standbyPools().registered(true);
        }
    }

    @Test
    void hibernationIsAProblemWhereAzureCannotHibernateTheScaleSetsVms() throws IOException {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(1, PowerState.DEALLOCATED));
        arm.scaleSet(ScaleSetSpec.flexible(rg, "plain").sku("Standard_D4s_v5").instances(1, PowerState.DEALLOCATED));
        arm.scaleSet(ScaleSetSpec.flexible(rg, "ready").sku("Standard_D4s_v5").hibernationEnabled(true)
                .instances(1, PowerState.DEALLOCATED));
        arm.scaleSet(ScaleSetSpec.flexible(rg, "spot").sku("Standard_D4s_v5").spot("Deallocate")
                .instances(1, PowerState.DEALLOCATED));

        Run uniform = check(config("hb", "pool.hb.stopAction = hibernate"));
        Run notEnabled = check(config("plain", "pool.hb.stopAction = hibernate"));
        Run enabled = check(config("ready", "pool.hb.stopAction = hibernate"));
        Run spot = check(config("spot", "pool.hb.stopAction = hibernate"));

        assertEquals(1, uniform.exitCode(), uniform.out() + uniform.err());
        assertTrue(uniform.out().contains("scale set hb is Uniform, and Azure hibernates only Flexible"),
                uniform.out());
        assertEquals(1, notEnabled.exitCode(), notEnabled.out() + notEnabled.err());
        assertTrue(notEnabled.out().contains("does not have hibernation enabled "
                + "(properties.additionalCapabilities.hibernationEnabled)"), notEnabled.out());
        assertEquals(0, enabled.exitCode(), enabled.out() + enabled.err());
        assertTrue(enabled.out().contains("scale set ready has hibernation enabled"), enabled.out());
        assertEquals(1, spot.exitCode(), spot.out() + spot.err());
        assertTrue(spot.out().contains("runs Spot VMs, which Azure does not hibernate"), spot.out());
    }

    @Test
    void aRefusedVmSizeReadIsAProblemOnlyWhenTheShapeIsNotSet() throws IOException {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(1, PowerState.DEALLOCATED));
        arm.permissions().allowOnly("Microsoft.Compute/virtualMachineScaleSets/*");

        Run shapeless = check(config("hb"));
        Run shaped = check(config("hb", "pool.hb.cpus = 120", "pool.hb.memoryMb = 430000"));

        assertEquals(1, shapeless.exitCode(), shapeless.out() + shapeless.err());
        assertTrue(shapeless.out().contains("problem cannot read the VM sizes of region westeurope")
                && shapeless.out().contains("Microsoft.Compute/skus/read on /subscriptions/" + arm.subscriptionId())
                && shapeless.out().contains("or set pool.hb.cpus and pool.hb.memoryMb"), shapeless.out());
        assertEquals(0, shaped.exitCode(), shaped.out() + shaped.err());
        assertTrue(shaped.out().contains("ok      VM size Standard_HB120rs_v3 not checked"), shaped.out());
    }

    @Test
    void checksAFlexibleScaleSetsVmActionsOnItsResourceGroup() throws IOException {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.flexible(rg, "fx").sku("Standard_D4s_v5").instances(1, PowerState.RUNNING));
        arm.permissions().deny("Microsoft.Compute/virtualMachines/start/action");

        Run run = check(config("fx"));

        assertEquals(1, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("Flexible, 1 instance of Standard_D4s_v5")
                && run.out().contains("Microsoft.Compute/virtualMachines/start/action on " + groupScope() + ": "),
                run.out());
    }

    @Test
    void aMissingScaleSetNamesTheSettingsToCheck() throws IOException {
        arm.resourceGroup(rg, "westeurope", Map.of());

        Run run = check(config("nope"));

        assertEquals(1, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("scale set nope in resource group " + rg)
                && run.out().contains("does not exist (Azure answered ResourceNotFound)")
                && run.out().contains("pool.hb.azure.scaleSet, pool.hb.azure.resourceGroup and "
                        + "pool.hb.azure.subscriptionId"), run.out());
        assertFalse(run.out().contains("3. "), "nothing more can be checked without the scale set: " + run.out());
    }

    @Test
    void reportsNodesThatMatchNoInstance() throws IOException {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(2, PowerState.RUNNING));
        agentReports("hb", "HB000000.cluster.local", "cn-17");

        Run run = check(config("hb"));

        assertEquals(1, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("nodes: the agent reports 1 node in pool hb that is no instance of Uniform "
                + "scale set hb")
                && run.out().contains("- cn-17 (free)")
                && run.out().contains("pool.hb.azure.nodeName = computerName"), run.out());
        assertTrue(run.out().contains("1 running instance of Uniform scale set hb in resource group " + rg
                + " has a node the agent does not report") && run.out().contains("- hb_1: node hb000001"),
                run.out());
        assertFalse(run.out().contains("HB000000"), "matched without case or domain: " + run.out());
    }

    @Test
    void aStoreThatCannotBeReadIsAFindingAndOtherProvidersAreCheckedToo() throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("file"), "");
        Path config = dir.resolve("hpcscale.properties");
        Files.write(config, List.of(
                "store.sqlite.path = " + notADirectory.resolve("clusterload.db"),
                "pool.rack.provider = command", "pool.rack.max = 2", "pool.rack.cpus = 16",
                "pool.rack.memoryMb = 65536", "pool.rack.command.list = /bin/echo rack1 node1 running",
                "pool.rack.command.start = /bin/true {instance}", "pool.rack.command.stop = /bin/true {instance}",
                "pool.sim.provider = simulated", "pool.sim.max = 2", "pool.sim.cpus = 16",
                "pool.sim.memoryMb = 65536"));

        Run run = check(config);

        assertEquals(1, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("1 instance listed by command provider of pool rack: 1 running")
                && run.out().contains("nodes: the nodes the agent reports cannot be read")
                && run.out().contains("pool sim (simulated)\n  1. ok"), run.out());
    }

    @Test
    void anUnusableConfigurationExitsTwoNamingEverySetting() throws IOException {
        Path config = dir.resolve("hpcscale.properties");
        Files.write(config, List.of("pool.hb.provider = azure", "pool.hb.max = 4",
                "pool.rack.provider = command", "pool.rack.max = 2", "pool.rack.cpus = 16",
                "pool.rack.memoryMb = 65536"));

        Run run = check(config);

        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertTrue(run.err().contains("pool.hb.azure.resourceGroup is required")
                && run.err().contains("pool.rack.command.list is required"), run.err());
    }

    @Test
    void beforeAnyAgentReportsItSaysWhatToStartInsteadOfAProblemPerInstance() throws IOException {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(3, PowerState.RUNNING));

        Run run = check(config("hb"));

        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("no agent has reported pool hb yet")
                && run.out().contains("systemctl enable --now hpcscale-agent-pbs"), run.out());
        assertFalse(run.out().contains("does not report"), run.out());
    }

    @Test
    void anOverprovisioningScaleSetIsAProblemNamingTheLineThatTurnsItOff() throws IOException {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").overprovision(true).instances(1, PowerState.RUNNING));

        Run run = check(config("hb"));

        assertEquals(1, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("scale set hb overprovisions (properties.overprovision is true")
                && run.out().contains("az vmss update --resource-group " + rg + " --name hb --set "
                        + "overprovision=false"), run.out());
    }

    @Test
    void aVmSizeTheSubscriptionMayNotUseIsAProblem() throws IOException {
        arm.resourceGroup(rg, "southcentralus", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").sku("Standard_HC44rs").instances(1, PowerState.DEALLOCATED));
        arm.sizes().restrict("Standard_HC44rs", "southcentralus");
        try {
            Run run = check(config("hb"));

            assertEquals(1, run.exitCode(), run.out() + run.err());
            assertTrue(run.out().contains("VM size Standard_HC44rs is restricted for subscription")
                    && run.out().contains("NotAvailableForSubscription in southcentralus"), run.out());
        } finally {
            arm.sizes().unrestrict("Standard_HC44rs", "southcentralus");
        }
    }

    @Test
    void aTemplateIsReadThenValidatedByAzureAndItsGapsNamed() throws IOException {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(1, PowerState.RUNNING));
        Path good = ScaleSetTemplates.write(ScaleSetSpec.uniform(rg, "hb"), dir.resolve("good.json"));
        String withoutCapacity = Files.readString(good).replace("\"capacity\":{\"type\":\"int\"},", "")
                .replace("\"defaultValue\"", "\"description\"");
        Path bad = Files.writeString(dir.resolve("bad.json"), withoutCapacity);
        String growth = "pool.hb.azure.allowCreate = true";

        Run valid = check(config("hb", growth, "pool.hb.azure.vmsPerScaleSet = 50",
                "pool.hb.azure.template = " + good));
        Run invalid = check(config("hb", growth, "pool.hb.azure.vmsPerScaleSet = 50",
                "pool.hb.azure.template = " + bad));

        assertTrue(valid.out().contains("Azure validates a deployment of it as scale set hb-2 (nothing deployed)"),
                valid.out());
        assertEquals(1, invalid.exitCode(), invalid.out() + invalid.err());
        assertTrue(invalid.out().contains("declares no parameter capacity")
                && invalid.out().contains("needs a value for its parameter customData"), invalid.out());
        assertFalse(arm.state().scaleSet(rg, "hb-2").isPresent(), "validation deploys nothing");
    }

    @Test
    void aBrokenTemplateParametersFileIsNamedWithoutQuotingItsSecrets() throws IOException {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(1, PowerState.RUNNING));
        Path template = ScaleSetTemplates.write(ScaleSetSpec.uniform(rg, "hb"), dir.resolve("t.json"));
        Path parameters = Files.writeString(dir.resolve("p.json"),
                "{\"parameters\": {\"customData\": {\"value\": hunter2-not-json}}}");

        Run run = check(config("hb", "pool.hb.azure.allowCreate = true", "pool.hb.azure.vmsPerScaleSet = 50",
                "pool.hb.azure.template = " + template, "pool.hb.azure.templateParameters = " + parameters));

        assertEquals(1, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains(parameters + " (pool.hb.azure.templateParameters) is not valid JSON at line 1"),
                run.out());
        assertFalse((run.out() + run.err()).contains("hunter2"), "the secret is not quoted: " + run.out());
    }
}
