package io.hpcscale.common.agent;

import static io.hpcscale.common.agent.FakeSchedulerAdapter.freeNode;
import static io.hpcscale.common.agent.FakeSchedulerAdapter.withDown;
import static io.hpcscale.common.agent.FakeSchedulerAdapter.withOffline;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.hpcscale.common.logging.CapturedLog;
import io.hpcscale.common.model.DrainDocument;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DrainResponderTest {
    private static final Instant REQUESTED = Instant.parse("2026-11-22T10:00:00Z");

    private final DrainResponder responder = new DrainResponder(new PoolMap(Map.of("batch", "batch"),
            Map.of("gpu", Pattern.compile("gpu\\d+"))));

    private static Map<String, DrainDocument> drains(String... nodes) {
        return Arrays.stream(nodes).collect(Collectors.toMap(n -> n,
                n -> DrainDocument.request("batch", n, "idle 5m", REQUESTED)));
    }

    private static SchedulerSnapshot nodes(SchedulerNode... nodes) {
        return SchedulerSnapshot.of(List.of(), List.of(nodes));
    }

    private static SchedulerNode ourOffline(String name, String queue) {
        return withOffline(freeNode(name, queue, 16), true, true);
    }

    private static List<String> offline(DrainResponder.Actions actions) {
        return actions.takeOffline().stream().map(DrainDocument::name).toList();
    }

    private static List<String> returned(DrainResponder.Actions actions) {
        return actions.bringBack().stream().map(SchedulerNode::name).toList();
    }

    @Test
    void takesOfflineOnlyTheRequestedNodesThatAreStillInService() {
        try (CapturedLog log = new CapturedLog(DrainResponder.class)) {
            DrainResponder.Actions actions = responder.decide(drains("n1", "n2"), nodes(freeNode("n1", "batch", 16),
                    ourOffline("n2", "batch"), freeNode("n3", "batch", 16)), Set.of());
            assertEquals(List.of("n1"), offline(actions));
            assertTrue(actions.bringBack().isEmpty(), "n2 is still requested");
            assertTrue(log.at(Level.INFO).isEmpty(), "n2 is offline by hpcscale, not by an administrator");
        }
    }

    @Test
    void neverPassesAHostileNodeNameToASchedulerCommand() {
        List<String> hostile = List.of("-r", "n[1-99]", "n1,n2", "a b", "x;reboot", "n1 state=resume", "");
        List<SchedulerNode> all = new ArrayList<>();
        hostile.forEach(n -> all.add(freeNode(n, "batch", 16)));
        hostile.forEach(n -> all.add(ourOffline(n + "-was-drained", "batch")));
        all.add(freeNode("n7", "batch", 16));
        List<String> names = new ArrayList<>(hostile);
        names.add("n7");
        String[] requested = names.toArray(String[]::new);
        try (CapturedLog log = new CapturedLog(DrainResponder.class)) {
            DrainResponder.Actions actions = responder.decide(drains(requested),
                    SchedulerSnapshot.of(List.of(), all), Set.of());
            assertEquals(List.of("n7"), offline(actions));
            assertTrue(actions.bringBack().isEmpty(), returned(actions).toString());
            assertEquals(2 * hostile.size(), log.at(Level.WARN).size(), "each hostile drain and each hostile "
                    + "drained node once: " + log.at(Level.WARN));
            responder.decide(drains(requested), SchedulerSnapshot.of(List.of(), all), Set.of());
            assertEquals(2 * hostile.size(), log.at(Level.WARN).size(), "each said once");
        }
    }

    @Test
    void leavesANodeAnAdministratorTookOfflineAloneAndSaysSoOnce() {
        SchedulerSnapshot adminOffline = nodes(withOffline(freeNode("n1", "batch", 16), true, false));
        try (CapturedLog log = new CapturedLog(DrainResponder.class)) {
            for (int cycle = 0; cycle < 3; cycle++) {
                DrainResponder.Actions actions = responder.decide(drains("n1"), adminOffline, Set.of());
                assertTrue(actions.takeOffline().isEmpty() && actions.bringBack().isEmpty());
            }
            assertEquals(List.of("pool=batch node=n1 drain requested, but an administrator has taken the node "
                    + "offline (state offline); hpcscale leaves it alone"), log.at(Level.INFO));
            assertTrue(returned(responder.decide(Map.of(), adminOffline, Set.of())).isEmpty(), "not ours to return");
        }
    }

    @Test
    void warnsOnceAboutADrainOfANodeTheSchedulerDoesNotListAndAgainIfItComesBack() {
        try (CapturedLog log = new CapturedLog(DrainResponder.class)) {
            SchedulerSnapshot without = nodes(freeNode("n1", "batch", 16));
            assertTrue(responder.decide(drains("n9"), without, Set.of()).takeOffline().isEmpty());
            responder.decide(drains("n9"), without, Set.of());
            String warning = "pool=batch node=n9 drain requested for a node the scheduler does not list; ignoring it";
            assertEquals(List.of(warning), log.at(Level.WARN));
            responder.decide(Map.of(), without, Set.of());
            responder.decide(drains("n9"), without, Set.of());
            assertEquals(List.of(warning, warning), log.at(Level.WARN));
        }
    }

    @Test
    void saysNothingAboutADrainOfANodeTheSchedulerListedButCouldNotRead() {
        try (CapturedLog log = new CapturedLog(DrainResponder.class)) {
            SchedulerSnapshot unreadable = new SchedulerSnapshot(List.of(), List.of(), Set.of(), Set.of("n9"));
            assertTrue(responder.decide(drains("n9"), unreadable, Set.of()).takeOffline().isEmpty());
            assertTrue(log.at(Level.WARN).isEmpty(), log.at(Level.WARN).toString());
        }
    }

    @Test
    void returnsItsOwnOfflineNodesOfServedPoolsOnceNoDrainIsRequested() {
        DrainResponder.Actions actions = responder.decide(drains("n2"), nodes(ourOffline("n1", "batch"),
                ourOffline("n2", "batch"), ourOffline("gpu3", "other"), ourOffline("x1", "other")), Set.of());
        assertEquals(List.of("n1", "gpu3"), returned(actions), "x1 is in no pool this agent serves");
    }

    @Test
    void waitsForADownNodeToReportInBeforeReturningItAndSaysSoOnce() {
        SchedulerSnapshot down = nodes(withDown(ourOffline("n1", "batch"), true));
        try (CapturedLog log = new CapturedLog(DrainResponder.class)) {
            for (int cycle = 0; cycle < 3; cycle++) {
                assertTrue(responder.decide(Map.of(), down, Set.of()).bringBack().isEmpty());
            }
            assertEquals(List.of("pool=batch node=n1 is no longer drained; it will be returned to service once it "
                    + "reports in (now down)"), log.at(Level.INFO));
        }
        assertEquals(List.of("n1"), returned(responder.decide(Map.of(), nodes(ourOffline("n1", "batch")), Set.of())));
    }
}
