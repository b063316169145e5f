package io.hpcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.cloud.azure.FakeArmServer;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * status, events and usage through the real command line, against the fake Resource Manager: each call a new
 * process as far as the scaler can tell, reading what the {@code once} before it recorded.
 */
@ExtendWith(FakeArmServer.class)
class OperatingCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final FakeArm arm = FakeArmServer.arm();

    private Path renderFarm(String rg, int target) throws Exception {
        arm.resourceGroup(rg, "westeurope", Map.of("TOTAL_NODES", String.valueOf(target)));
        arm.scaleSet(ScaleSetSpec.uniform(rg, "farm").computerNamePrefix("rn").instances(6, PowerState.DEALLOCATED));
        Path config = dir.resolve("hpcscale.properties");
        List<String> lines = AzureCommandLine.settings(arm, dir);
        lines.addAll(List.of(
                "pool.render.provider = azure",
                "pool.render.target = fixed",
                "pool.render.max = 6",
                "pool.render.vmSize = Standard_D4s_v5",
                "pool.render.pricePerHour = 2.5",
                "pool.render.azure.resourceGroup = " + rg,
                "pool.render.azure.scaleSet = farm"));
        Files.write(config, lines);
        return config;
    }

    @Test
    void statusShowsEachPoolsInstancesTargetAndLastActionAsTextAndJson() throws Exception {
        Path config = renderFarm("rg-status", 4);
        ScalerCommandLine.once(config);

        ScalerCommandLine.Run json = ScalerCommandLine.run("status", "--json", "--config", config.toString());
        assertEquals(0, json.code(), json.output());
        JsonNode pool = JSON.readTree(json.output()).get("pools").get(0);
        assertEquals("render", pool.get("pool").asText());
        assertEquals("fixed", pool.get("mode").asText());
        assertEquals(4, pool.get("target").asInt());
        assertEquals(6, pool.get("max").asInt());
        JsonNode instances = pool.get("instances");
        assertEquals(4, instances.get("booting").asInt() + instances.get("running-free").asInt(), json.output());
        assertEquals(2, instances.get("stopped").asInt(), json.output());
        assertEquals("start", pool.get("lastAction").get("action").asText());
        assertEquals(4, pool.get("lastAction").get("instances").size());
        assertTrue(pool.get("agent") == null, "no agent serves a render farm: " + json.output());

        ScalerCommandLine.Run text = ScalerCommandLine.run("status", "--config", config.toString());
        assertEquals(0, text.code(), text.output());
        assertTrue(text.output().contains("pool render  (fixed target, min 0, max 6)"), text.output());
        assertTrue(text.output().contains("target 4"), text.output());
        assertTrue(text.output().contains("2 stopped"), text.output());
        assertTrue(text.output().contains("no agent has reported this pool"), text.output());
        assertTrue(!text.output().contains("\u001B["), "no colour when the output is not a terminal");
    }

    @Test
    void statusNamesAMissingStoreAnUnknownPoolAndWhoHoldsTheLease() throws Exception {
        Path config = renderFarm("rg-lease", 2);
        ScalerCommandLine.Run noStore = ScalerCommandLine.run("status", "--config", config.toString());
        assertTrue(noStore.code() != 0 && noStore.output().contains("clusterload.db does not exist"),
                noStore.output());
        assertTrue(!Files.exists(dir.resolve("clusterload.db")), "status made no empty store");
        ScalerCommandLine.once(config);

        ScalerCommandLine.Run unknown = ScalerCommandLine.run("status", "--pool", "nope", "--config",
                config.toString());
        assertEquals(2, unknown.code(), unknown.output());
        assertTrue(unknown.output().contains("--pool nope is not a configured pool: render"), unknown.output());

        ScalerCommandLine.Run json = ScalerCommandLine.run("status", "--json", "--pool", "render", "--config",
                config.toString());
        JsonNode lease = JSON.readTree(json.output()).get("lease");
        assertTrue(lease.isEmpty() || !lease.get("live").asBoolean(),
                "status plans only, and takes no lease: " + json.output());
    }

    @Test
    void eventsListTheAuditTrailAsTextAndJsonAndFollowNewOnes() throws Exception {
        Path config = renderFarm("rg-events", 2);
        ScalerCommandLine.once(config);

        ScalerCommandLine.Run json = ScalerCommandLine.run("events", "--json", "--since", "1h", "--config",
                config.toString());
        assertEquals(0, json.code(), json.output());
        List<JsonNode> events = new ArrayList<>();
        for (String line : json.output().strip().split("\n")) {
            events.add(JSON.readTree(line));
        }
        JsonNode start = events.stream().filter(e -> e.get("Action").asText().equals("start")).findFirst()
                .orElseThrow(() -> new AssertionError("no start event: " + json.output()));
        assertEquals("render", start.get("PoolName").asText());
        assertEquals(2, start.get("Instances").size());
        assertEquals("ok", start.get("Outcome").asText());

        ScalerCommandLine.Run text = ScalerCommandLine.run("events", "--pool", "render", "--config",
                config.toString());
        assertTrue(text.output().lines().anyMatch(l -> l.contains(" render ") && l.contains(" start ")
                && l.contains(" ok ")), text.output());
        ScalerCommandLine.Run none = ScalerCommandLine.run("events", "--pool", "other", "--config",
                config.toString());
        assertEquals("", none.output());

        StringWriter followed = new StringWriter();
        CommandLine follow = ScalerMain.commandLine();
        follow.setOut(new PrintWriter(followed, true));
        Thread follower = new Thread(() -> follow.execute("events", "--follow", "--follow-interval", "100ms",
                "--since", "1h", "--config", config.toString()));
        follower.start();
        try {
            awaitLines(followed, events.size());
            arm.state().resourceGroup("rg-events").orElseThrow().tags().put("TOTAL_NODES", "3");
            ScalerCommandLine.once(config);
            awaitLines(followed, events.size() + 1);
            assertTrue(followed.toString().lines().skip(events.size()).anyMatch(l -> l.contains(" start ")),
                    "the new start appears while following: " + followed);
        } finally {
            follower.interrupt();
            follower.join(TimeUnit.SECONDS.toMillis(10));
        }
    }

    private static void awaitLines(StringWriter out, int lines) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (out.toString().lines().count() < lines && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(out.toString().lines().count() >= lines, "expected " + lines + " lines: " + out);
    }

    @Test
    void usageAddsUpInstanceHoursWithTheirCostByPoolAndByDay() throws Exception {
        Path config = renderFarm("rg-usage", 3);
        ScalerCommandLine.once(config);
        Thread.sleep(1100);
        ScalerCommandLine.once(config);

        ScalerCommandLine.Run csv = ScalerCommandLine.run("usage", "--csv", "--config", config.toString());
        assertEquals(0, csv.code(), csv.output());
        List<String> lines = csv.output().lines().toList();
        assertEquals("pool,vm_size,instance_hours,busy_hours,idle_share,cost", lines.get(0));
        String[] row = lines.get(1).split(",");
        assertEquals("render", row[0]);
        assertEquals("Standard_D4s_v5", row[1]);
        double hours = Double.parseDouble(row[2]);
        assertTrue(hours > 0 && hours < 0.01, "three instances for about a second: " + csv.output());
        assertEquals("1.0000", row[4], "no agent reports a busy node: " + csv.output());
        assertEquals(hours * 2.5, Double.parseDouble(row[5]), 0.01);

        ScalerCommandLine.Run byDay = ScalerCommandLine.run("usage", "--by", "day", "--since", "7d", "--config",
                config.toString());
        assertEquals(0, byDay.code(), byDay.output());
        assertTrue(byDay.output().lines().anyMatch(l -> l.matches("\\d{4}-\\d{2}-\\d{2} .*")), byDay.output());

        ScalerCommandLine.Run wrong = ScalerCommandLine.run("usage", "--by", "week", "--config", config.toString());
        assertEquals(2, wrong.code());
        assertTrue(wrong.output().contains("--by week: use pool or day"), wrong.output());
    }
}
