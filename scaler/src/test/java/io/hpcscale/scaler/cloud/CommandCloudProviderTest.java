package io.hpcscale.scaler.cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.pool.VmShape;
import io.hpcscale.scaler.run.PoolRuntime;
import io.hpcscale.scaler.run.Scaler;
import io.hpcscale.scaler.run.ScalerEvents;
import io.hpcscale.scaler.run.TestScalers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command provider against real processes: each "VM" is a long-running process that the configured start
 * command launches and the stop command kills; the list command reports which are alive.
 */
class CommandCloudProviderTest {
    @TempDir
    Path dir;

    private CommandCloudProvider provider;

    @BeforeEach
    void scripts() throws IOException {
        script("vm-list", """
                for i in 1 2 3; do
                  if [ -f "$D/vm$i.pid" ] && kill -0 "$(cat "$D/vm$i.pid")" 2>/dev/null; then state=running; else state=stopped; fi
                  echo "vm$i node$i $state"
                done
                [ -f "$D/garbage" ] && echo "vm9 node9 exploded"
                exit 0
                """);
        script("vm-start", """
                touch "$D/$1.started"
                [ -f "$D/no-capacity" ] && { echo "no capacity in rack" >&2; exit 69; }
                nohup sleep 3600 >/dev/null 2>&1 &
                echo $! > "$D/$1.pid"
                """);
        script("vm-stop", """
                [ -f "$D/$1.pid" ] || { echo "$1 ($2) is not running" >&2; exit 3; }
                kill "$(cat "$D/$1.pid")"; rm -f "$D/$1.pid"
                """);
        provider = provider(dir.resolve("vm-list").toString());
    }

    @AfterEach
    void killVms() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path pid : files.filter(f -> f.toString().endsWith(".pid")).toList()) {
                ProcessHandle.of(Long.parseLong(Files.readString(pid).trim())).ifPresent(ProcessHandle::destroy);
            }
        }
    }

    private CommandCloudProvider provider(String list) {
        CommandLimits limits = new CommandLimits(Duration.ofSeconds(5), "pool.rack.command.timeout", 1 << 20,
                "pool.rack.command.list");
        return new CommandCloudProvider(new ZtExecCommandRunner(), CommandCloudProvider.Commands.parse("rack", list,
                dir.resolve("vm-start") + " {instance}", dir.resolve("vm-stop") + " {instance} {node}", limits),
                CallGate.ALWAYS_OPEN);
    }

    private void script(String name, String body) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, "#!/bin/sh\nD='" + dir + "'\n" + body);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private boolean alive(String instance) throws IOException {
        Path pid = dir.resolve(instance + ".pid");
        return Files.exists(pid) && ProcessHandle.of(Long.parseLong(Files.readString(pid).trim()))
                .map(ProcessHandle::isAlive).orElse(false);
    }

    private PowerState state(String instance) throws Exception {
        return provider.list().stream().filter(i -> i.id().equals(instance)).findFirst().orElseThrow().state();
    }

    @Test
    void startsListsAndStopsRealProcesses() throws Exception {
        assertEquals(List.of(new Instance("vm1", "node1", PowerState.STOPPED),
                new Instance("vm2", "node2", PowerState.STOPPED), new Instance("vm3", "node3", PowerState.STOPPED)),
                provider.list());
        provider.start(List.of(new Instance("vm1", "node1", PowerState.STOPPED),
                new Instance("vm2", "node2", PowerState.STOPPED)));
        assertTrue(alive("vm1") && alive("vm2"));
        assertEquals(PowerState.RUNNING, state("vm1"));
        provider.stop(List.of(new Instance("vm1", "node1", PowerState.RUNNING)), StopAction.DEALLOCATE);
        assertEquals(PowerState.STOPPED, state("vm1"));
        assertEquals(PowerState.RUNNING, state("vm2"));
    }

    @Test
    void exitStatus69IsACapacityErrorAndTheRestOfTheBatchIsNotAttempted() throws Exception {
        Files.createFile(dir.resolve("no-capacity"));
        Instance vm1 = new Instance("vm1", "node1", PowerState.STOPPED);
        Instance vm2 = new Instance("vm2", "node2", PowerState.STOPPED);
        InstanceResults results = provider.start(List.of(vm1, vm2));
        assertTrue(results.done().isEmpty());
        assertTrue(results.failed().get(vm1) instanceof CapacityException);
        assertTrue(results.failed().get(vm1).getMessage().contains("no capacity in rack"));
        assertTrue(results.failed().get(vm2) instanceof CapacityException, "not attempted: it would fail the same");
        assertEquals(List.of("vm1"), starts(), "one start command ran");
    }

    @Test
    void aFailedStopCarriesStderrAndTheOthersAreStillStopped() throws Exception {
        provider.start(List.of(new Instance("vm1", "node1", PowerState.STOPPED)));
        Instance vm1 = new Instance("vm1", "node1", PowerState.RUNNING);
        Instance vm3 = new Instance("vm3", "node3", PowerState.RUNNING);
        InstanceResults results = provider.stop(List.of(vm3, vm1), StopAction.DEALLOCATE);
        assertEquals(List.of(vm1), results.done());
        assertTrue(results.failed().get(vm3).getMessage().contains("exited with status 3: vm3 (node3) is not running"),
                results.failed().get(vm3).getMessage());
        assertFalse(alive("vm1"));
    }

    @Test
    void noCommandBeginsOnceTheGateCloses() throws Exception {
        String[] closed = {null};
        CommandCloudProvider gated = new CommandCloudProvider(new ZtExecCommandRunner(),
                CommandCloudProvider.Commands.parse("rack", dir.resolve("vm-list").toString(),
                        dir.resolve("vm-start") + " {instance}", dir.resolve("vm-stop") + " {instance} {node}",
                        new CommandLimits(Duration.ofSeconds(5), "t", 1 << 20, "l")),
                () -> closed[0]);
        Instance vm1 = new Instance("vm1", "node1", PowerState.STOPPED);
        Instance vm2 = new Instance("vm2", "node2", PowerState.STOPPED);
        closed[0] = "the scaler is shutting down";
        InstanceResults results = gated.start(List.of(vm1, vm2));
        assertTrue(results.done().isEmpty());
        assertEquals("not attempted: the scaler is shutting down", results.failed().get(vm1).getMessage());
        assertFalse(alive("vm1") || alive("vm2"));
    }

    private List<String> starts() throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".started"))
                    .map(f -> f.substring(0, f.length() - ".started".length())).sorted().toList();
        }
    }

    @Test
    void anUnreadableListLineMakesTheListUnknownAndSaysWhichLine() throws Exception {
        Files.createFile(dir.resolve("garbage"));
        CloudException e = assertThrows(CloudException.class, provider::list);
        assertTrue(e.getMessage().contains("line 4 of the output of pool.rack.command.list")
                && e.getMessage().contains("unknown state 'exploded'"), e.getMessage());
    }

    @Test
    void aMissingListProgramNamesItsSetting() {
        CloudException e = assertThrows(CloudException.class,
                () -> provider(dir.resolve("no-such-list").toString()).list());
        assertTrue(e.getMessage().contains("setting pool.rack.command.list"), e.getMessage());
    }

    @Test
    void refusesUnknownPlaceholdersAndOpenQuotes() {
        CommandLimits limits = new CommandLimits(Duration.ofSeconds(1), "t", 1024, "c");
        IllegalArgumentException placeholder = assertThrows(IllegalArgumentException.class, () ->
                CommandCloudProvider.Commands.parse("rack", "list", "start {host}", "stop {node}", limits));
        assertTrue(placeholder.getMessage().startsWith("pool.rack.command.start: {host} is not a placeholder"));
        assertThrows(IllegalArgumentException.class, () ->
                CommandCloudProvider.Commands.parse("rack", "list 'x", "start", "stop", limits));
        assertEquals(List.of("ipmitool", "-H", "bmc-vm1", "-P", "secret word", "power", "on"),
                CommandTemplate.parse("ipmitool -H bmc-{instance} -P 'secret word' power on", java.util.Set.of(
                        "instance", "node")).render(java.util.Map.of("instance", "vm1", "node", "n1")));
    }

    @Test
    void theScalerStartsDrainsAndStopsRealProcesses() throws Exception {
        SettableClock clock = new SettableClock(Instant.parse("2026-11-22T10:00:00Z"));
        InMemoryClusterLoadStore memory = new InMemoryClusterLoadStore(clock);
        DocumentStore documents = new DocumentStore(memory);
        PoolConfig pool = PoolConfigs.withDefaults("rack", new VmShape(16, 65536, 0), 3,
                java.util.Map.of("stopAction", "powerOff"));
        Scaler scaler = TestScalers.scaler(List.of(new PoolRuntime(pool, provider)), documents,
                new ScalerEvents(documents, Duration.ofDays(1), true), clock, false);
        heartbeat(documents, clock.instant());
        for (String job : List.of("1", "2")) {
            documents.upsert(List.of(new JobDocument(job, "rack", job, "rack", JobState.Queued, 1,
                    List.of(new Chunk(1, 16, 0, 0)), Placement.free, false, clock.instant(), "agent-h-pbs")));
        }
        scaler.runOnce(clock.instant());
        assertTrue(alive("vm1") && alive("vm2") && !alive("vm3"));

        clock.advance(Duration.ofMinutes(10));
        documents.delete(List.of(new DocumentKey("rack", "1"), new DocumentKey("rack", "2")));
        documents.upsert(List.of(vm("node1", false, null, clock), vm("node2", false, null, clock)));
        heartbeat(documents, clock.instant());
        scaler.runOnce(clock.instant());
        DrainDocument drain = documents.read(new DocumentKey("rack", DrainDocument.idFor("node1")),
                DrainDocument.class).orElseThrow().document();

        clock.advance(Duration.ofMinutes(1));
        documents.upsert(List.of(vm("node1", true, drain.requestedAt(), clock)));
        heartbeat(documents, clock.instant());
        scaler.runOnce(clock.instant());
        assertFalse(alive("vm1"), "drained and confirmed empty: stopped");
        assertTrue(alive("vm2"), "drain requested, not yet confirmed by the agent: still running");
    }

    private static void heartbeat(DocumentStore documents, Instant at) {
        documents.upsert(List.of(new AgentDocument("agent-h-pbs", "pbs", "h", "t", at, 1, List.of("rack"), null, at)));
    }

    private static VmDocument vm(String node, boolean offline, Instant drainRequestedAt, SettableClock clock) {
        return new VmDocument(node, "rack", node, NodeJobStatus.Free, offline ? "offline" : "free", offline, offline,
                false, false, 16, 0, 65536, 0, 0, 0, List.of(), clock.instant().minus(Duration.ofMinutes(9)), clock.instant(),
                drainRequestedAt, "agent-h-pbs");
    }
}
