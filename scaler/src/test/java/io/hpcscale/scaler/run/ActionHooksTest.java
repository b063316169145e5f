package io.hpcscale.scaler.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.scaler.Programs;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.StopKind;
import io.hpcscale.scaler.plan.Demand;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.plan.Plan;
import io.hpcscale.scaler.removal.Delivery;
import io.hpcscale.scaler.removal.RemovalMessage;
import io.hpcscale.scaler.removal.RemovalRequest;
import io.hpcscale.scaler.removal.VmResourceId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The administrator's hooks as real commands: what they read, what their answers do, and how they fail. */
class ActionHooksTest {
    private static final Instant NOW = Instant.parse("2026-11-22T08:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path EXAMPLES = Path.of("..", "docs", "examples").toAbsolutePath();

    @TempDir
    Path dir;

    private final Plan.Start startA = new Plan.Start(new Instance("vm_1", "a-vm001", PowerState.STOPPED), "a-vm001",
            "a", "2 queued jobs need 2 more nodes", false, false);
    private final Plan.Start startB = new Plan.Start(new Instance("vm_2", "a-vm002", PowerState.STOPPED), "a-vm002",
            "a", "2 queued jobs need 2 more nodes", false, false);
    private final Plan.Stop stop = new Plan.Stop(new Instance("vm_3", "a-vm003", PowerState.RUNNING), "a-vm003", "a",
            "drained", StopKind.DRAINED);
    private final Plan plan = new Plan("a", List.of(startA, startB, stop), List.of(), List.of(), 2, null,
            Demand.none(), Set.of());

    private Path script(String name, String body) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }

    private ActionHooks hooks(Map<String, String> settings) {
        Map<String, String> values = new HashMap<>(settings);
        return ActionHooks.fromSettings(new ConfigLoader(ConfigCatalog.installed()).fromMap(values, Programs.SCALER),
                new ZtExecCommandRunner());
    }

    private ActionHooks before(String body) throws Exception {
        return hooks(Map.of("scaler.hooks.before", script("before", body).toString(),
                "scaler.hooks.timeout", "2s"));
    }

    @Test
    void theBeforeHookReadsThePlanAsJsonWithIdsInPlanOrder() throws Exception {
        Path seen = dir.resolve("seen.json");
        before("cat > " + seen).before(plan, NOW);
        JsonNode read = JSON.readTree(Files.readString(seen));
        assertEquals("a", read.path("pool").asText());
        assertEquals(NOW.toString(), read.path("at").asText());
        JsonNode actions = read.path("actions");
        assertEquals(3, actions.size());
        assertEquals(1, actions.get(0).path("id").asInt());
        assertEquals("stop", actions.get(0).path("action").asText(), "stops are carried out before starts");
        assertEquals("vm_3", actions.get(0).path("subjects").get(0).asText());
        assertEquals("start", actions.get(1).path("action").asText());
        assertEquals("2 queued jobs need 2 more nodes", actions.get(1).path("reason").asText());
    }

    @Test
    void aNodesRemovalRequestIsTakenOnWhateverTheHookSaysButItsDeletionIsOffered() throws Exception {
        RemovalMessage.Request asks = new RemovalMessage.Request(new Delivery("m1", "receipt", 1, NOW), "{}",
                new RemovalRequest(VmResourceId.parse("/subscriptions/s/resourceGroups/rg/providers/"
                        + "Microsoft.Compute/virtualMachineScaleSets/a/virtualMachines/4"), "a", null, NOW,
                        "hpcscale-delete-me", "done"));
        Plan.Acceptance acceptance = new Plan.Acceptance(asks, "a_4");
        Plan.Removal removal = new Plan.Removal(new Instance("a_4", "a-vm004", PowerState.RUNNING), "a-vm004", "a",
                "asked by hpcscale-delete-me");
        Plan withRemoval = new Plan("a", List.of(acceptance, removal), List.of(), List.of(), 0, null, Demand.none(),
                Set.of());
        Path seen = dir.resolve("seen.json");
        ActionHooks.Verdict verdict = before("cat > " + seen + "; exit 1").before(withRemoval, NOW);
        assertEquals(List.of(acceptance), verdict.approved().actions(), "its message is answered");
        assertEquals(List.of(removal), verdict.refused().stream().map(ActionHooks.Refusal::action).toList());
        JsonNode offered = JSON.readTree(Files.readString(seen)).path("actions");
        assertEquals(1, offered.size());
        assertEquals("remove", offered.get(0).path("action").asText());
    }

    @Test
    void aVetoTakesTheActionOutOfThePlanWithTheHooksReason() throws Exception {
        ActionHooks.Verdict verdict = before("cat > /dev/null; echo '{\"veto\": [{\"id\": 3, \"reason\": "
                + "\"maintenance window until 18:00\"}]}'").before(plan, NOW);
        assertEquals(List.of(stop, startA), verdict.approved().actions());
        assertEquals(List.of(new ActionHooks.Refusal(startB, "vetoed by the before hook (scaler.hooks.before): "
                + "maintenance window until 18:00")), verdict.refused());
    }

    @Test
    void anEmptyAnswerOrOneWithoutVetoLetsEverythingThrough() throws Exception {
        assertEquals(plan.actions(), before("cat > /dev/null").before(plan, NOW).approved().actions());
        assertEquals(plan.actions(), before("cat > /dev/null; echo '{\"note\": \"fine\"}'").before(plan, NOW)
                .approved().actions());
    }

    @Test
    void aHookThatFailsHoldsAllThePoolsActions() throws Exception {
        ActionHooks.Verdict verdict = before("echo 'cannot reach the change calendar' >&2; exit 3").before(plan, NOW);
        assertTrue(verdict.approved().actions().isEmpty());
        assertEquals(3, verdict.refused().size());
        assertTrue(verdict.refused().get(0).reason().startsWith("the before hook (scaler.hooks.before) failed"),
                verdict.refused().get(0).reason());
        assertTrue(verdict.refused().get(0).reason().contains("cannot reach the change calendar"));
    }

    @Test
    void aHookThatHangsIsKilledAtItsTimeoutAndHoldsTheActions() throws Exception {
        ActionHooks hooks = hooks(Map.of("scaler.hooks.before", script("before", "sleep 60").toString(),
                "scaler.hooks.timeout", "300ms"));
        ActionHooks.Verdict verdict = hooks.before(plan, NOW);
        assertTrue(verdict.approved().actions().isEmpty());
        assertTrue(verdict.refused().get(0).reason().contains("did not finish within 0.3s and was killed"),
                verdict.refused().get(0).reason());
    }

    @Test
    void anAnswerOfAnyOtherFormHoldsTheActions() throws Exception {
        for (String answer : List.of("yes", "[1, 2]", "{\"veto\": 2}", "{\"veto\": [{\"id\": 4}]}",
                "{\"veto\": [{\"id\": \"2\"}]}")) {
            ActionHooks.Verdict verdict = before("cat > /dev/null; echo '" + answer + "'").before(plan, NOW);
            assertTrue(verdict.approved().actions().isEmpty(), answer);
            assertEquals(3, verdict.refused().size(), answer);
        }
    }

    @Test
    void theAfterHookReadsEveryOutcome() throws Exception {
        Path seen = dir.resolve("outcomes.json");
        ActionHooks hooks = hooks(Map.of("scaler.hooks.after", script("after", "cat > " + seen).toString()));
        hooks.after("a", List.of(new ScalerEvent(NOW, "a", EventKind.START, List.of("vm_1"), "needed", Outcome.OK),
                new ScalerEvent(NOW, "a", EventKind.AT_MAX, List.of(), "3 queued jobs need more nodes than the max",
                        Outcome.REFUSED),
                new ScalerEvent(NOW, "a", EventKind.STOP, List.of("vm_3"), "drained",
                        Outcome.refused("the scheduler lists a job on its node"))), NOW);
        JsonNode outcomes = JSON.readTree(Files.readString(seen)).path("outcomes");
        assertEquals(2, outcomes.size(), "a condition the planner noted is no outcome: " + outcomes);
        assertEquals("ok", outcomes.get(0).path("outcome").asText());
        assertEquals("refused: the scheduler lists a job on its node", outcomes.get(1).path("outcome").asText());
    }

    @Test
    void anAfterHookThatFailsChangesNothing() throws Exception {
        hooks(Map.of("scaler.hooks.after", script("after", "exit 1").toString())).after("a", List.of(
                new ScalerEvent(NOW, "a", EventKind.START, List.of("vm_1"), "needed", Outcome.OK)), NOW);
    }

    @Test
    void aStartTheHookVetoesIsNotMadeAndItsEventSaysWhy() throws Exception {
        ScalerFixture fixture = new ScalerFixture();
        Scaler scaler = fixture.scaler(before("cat > /dev/null; echo '{\"veto\": [{\"id\": 1, \"reason\": "
                + "\"no starts during the audit\"}]}'"), ScalerFixture.pool("a", 4));
        fixture.agentReported("a");
        fixture.queued("a", "1", 16);
        scaler.runOnce(fixture.clock.instant());
        assertEquals(0, fixture.active("a"));
        assertEquals(Outcome.refused("vetoed by the before hook (scaler.hooks.before): no starts during the audit"),
                fixture.eventsOf(EventKind.START).get(0).outcome());
    }

    @Test
    void theDocumentedFreezeHookRefusesStartsOnlyWhileItsFileExists() throws Exception {
        Path freeze = dir.resolve("freeze");
        ActionHooks hooks = hooks(Map.of("scaler.hooks.before", EXAMPLES.resolve("hpcscale-freeze") + " " + freeze));
        assertEquals(plan.actions(), hooks.before(plan, NOW).approved().actions(), "no freeze");
        Files.writeString(freeze, "quarterly audit until Monday\n");
        ActionHooks.Verdict frozen = hooks.before(plan, NOW);
        assertEquals(List.of(stop), frozen.approved().actions(), "the stop goes ahead");
        assertEquals(List.of(startA, startB), frozen.refused().stream().map(ActionHooks.Refusal::action).toList());
        assertTrue(frozen.refused().get(0).reason().endsWith("quarterly audit until Monday"));
    }

    @Test
    void theDocumentedActionLogHookWritesOneLinePerOutcome() throws Exception {
        Path log = dir.resolve("actions.log");
        hooks(Map.of("scaler.hooks.after", EXAMPLES.resolve("hpcscale-action-log") + " " + log)).after("a",
                List.of(new ScalerEvent(NOW, "a", EventKind.START, List.of("vm_1"), "needed", Outcome.OK)), NOW);
        assertEquals(List.of("2026-11-22T08:00:00Z a start vm_1 ok: needed"), Files.readAllLines(log));
    }

    @Test
    void noHookLeavesThePlanAsMade() throws Exception {
        assertSame(plan, ActionHooks.none().before(plan, NOW).approved());
    }

    @Test
    void aHookCommandThatCannotBeParsedIsAConfigurationError() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> hooks(Map.of("scaler.hooks.before", "/usr/local/sbin/guard --token s3cr3t 'unclosed")));
        assertTrue(e.getMessage().contains("scaler.hooks.before cannot be read as a command"), e.getMessage());
        assertTrue(!e.getMessage().contains("s3cr3t"), "no part of the command is repeated: " + e.getMessage());
    }
}
