package io.hpcscale.agent.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.agent.SchedulerCommandException;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.SchedulerSnapshot;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandResult;
import io.hpcscale.common.exec.FakeCommandRunner;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class PbsAdapterTest {
    private static final CommandLimits LIMITS = new CommandLimits(Duration.ofSeconds(5), "agent.commandTimeout",
            1 << 20, "agent.commandMaxOutput");
    private final FakeCommandRunner runner = new FakeCommandRunner();
    private final PbsAdapter adapter = new PbsAdapter(runner,
            new PbsCommands("/opt/pbs/bin/qstat", "/opt/pbs/bin/pbsnodes", LIMITS), ZoneOffset.UTC);

    private void cloudCluster() {
        runner.printing(List.of("/opt/pbs/bin/pbsnodes", "-a"), Fixtures.text(Fixtures.NODES))
                .printing(List.of("/opt/pbs/bin/qstat", "-Q"), Fixtures.text(Fixtures.CLOUD_QUEUES))
                .printing(List.of("/opt/pbs/bin/qstat", "-f"), Fixtures.text(Fixtures.CLOUD_JOBS));
    }

    @Test
    void readsNodesQueuesAndJobsWithTheConfiguredCommands() throws Exception {
        cloudCluster();
        SchedulerSnapshot snapshot = adapter.read();
        assertEquals(12, snapshot.jobs().size());
        assertEquals(6, snapshot.nodes().size());
        assertEquals(List.of(
                List.of("/opt/pbs/bin/pbsnodes", "-a", "-F", "json"),
                List.of("/opt/pbs/bin/qstat", "-Q", "-f", "-F", "json"),
                List.of("/opt/pbs/bin/qstat", "-f", "-t", "-F", "json")), runner.calls());
    }

    @Test
    void drainsWithTheMarkerCommentCutToWhatPbsKeeps() throws Exception {
        runner.printing(List.of("/opt/pbs/bin/pbsnodes", "-o"), "");
        adapter.offline("node7", "idle for 5m, not needed by 0 queued jobs " + "x".repeat(80));
        List<String> call = runner.calls().get(0);
        assertEquals(List.of("/opt/pbs/bin/pbsnodes", "-o", "-C"), call.subList(0, 3));
        assertTrue(call.get(3).startsWith("hpcscale: idle for 5m"), call.get(3));
        assertEquals(79, call.get(3).length());
        assertEquals("node7", call.get(4));
    }

    @Test
    void requeuesAJobWithTheQrerunBesideTheConfiguredQstat() throws Exception {
        runner.printing(List.of("/opt/pbs/bin/qrerun"), "");
        adapter.requeue("1042.pbs-server");
        assertEquals(List.of("/opt/pbs/bin/qrerun", "1042.pbs-server"), runner.calls().get(0));
    }

    @Test
    void showsWhyAJobWaitsAsItsCommentQuotedSoThatQalterReadsItWhole() throws Exception {
        runner.printing(List.of("/opt/pbs/bin/qalter"), "");
        adapter.showWaitReason("1044.pbs-server", "hpcscale: pool hc is at its max of 16 nodes: jobs wait, "
                + "see \"status\" (max=16)");
        assertEquals(List.of("/opt/pbs/bin/qalter", "-W", "comment=\"hpcscale: pool hc is at its max of 16 nodes: "
                + "jobs wait, see 'status' (max=16)\"", "1044.pbs-server"), runner.calls().get(0));
        adapter.showWaitReason("1044.pbs-server", null);
        assertEquals(1, runner.calls().size(), "the scheduler writes over the comment itself: nothing to take back");
        assertEquals(Duration.ofMinutes(10), adapter.waitReasonLasts(), "shown again after a scheduler cycle");
    }

    @Test
    void aJobThatMustNotBeRerunIsAClearFailure() {
        runner.failing(List.of("/opt/pbs/bin/qrerun"), 1, "qrerun: Job not rerunnable 1043.pbs-server");
        SchedulerCommandException e = assertThrows(SchedulerCommandException.class,
                () -> adapter.requeue("1043.pbs-server"));
        assertTrue(e.getMessage().contains("not rerunnable"), e.getMessage());
    }

    @Test
    void returnsANodeAndReplacesTheMarkerComment() throws Exception {
        runner.printing(List.of("/opt/pbs/bin/pbsnodes", "-r"), "");
        adapter.bringBack("node7");
        assertEquals(List.of("/opt/pbs/bin/pbsnodes", "-r", "-C", "returned to service by hpcscale", "node7"),
                runner.calls().get(0));
    }

    @Test
    void aFailingQstatFailsTheReadWithItsMessage() {
        runner.printing(List.of("/opt/pbs/bin/pbsnodes", "-a"), Fixtures.text(Fixtures.NODES))
                .printing(List.of("/opt/pbs/bin/qstat", "-Q"), Fixtures.text(Fixtures.CLOUD_QUEUES))
                .failing(List.of("/opt/pbs/bin/qstat", "-f"), 2,
                        "qstat: cannot connect to server pbsserver (errno=15010)\n");
        SchedulerReadException e = assertThrows(SchedulerReadException.class, adapter::read);
        assertTrue(e.getMessage().contains("exited with status 2: qstat: cannot connect to server pbsserver"),
                e.getMessage());
    }

    @Test
    void aServerWithoutNodesPrintsNothingButSaysSoOnStderr() throws Exception {
        runner.answering(List.of("/opt/pbs/bin/pbsnodes", "-a"), c -> new CommandResult(c, new byte[0],
                        "pbsnodes: No nodes found\n", Duration.ZERO))
                .printing(List.of("/opt/pbs/bin/qstat", "-Q"), Fixtures.text(Fixtures.CLOUD_QUEUES))
                .printing(List.of("/opt/pbs/bin/qstat", "-f"), Fixtures.text(Fixtures.CLOUD_JOBS));
        SchedulerSnapshot snapshot = adapter.read();
        assertTrue(snapshot.nodes().isEmpty());
        assertEquals(12, snapshot.jobs().size());
    }

    @Test
    void pbsnodesPrintingNothingWithoutSayingWhyFailsTheRead() {
        runner.answering(List.of("/opt/pbs/bin/pbsnodes", "-a"), c -> new CommandResult(c, new byte[0],
                "pbsnodes: Server has no node list\n", Duration.ZERO));
        SchedulerReadException e = assertThrows(SchedulerReadException.class, adapter::read);
        assertTrue(e.getMessage().contains("`/opt/pbs/bin/pbsnodes -a -F json` printed nothing but: pbsnodes: Server "
                + "has no node list; nothing was changed"), e.getMessage());
    }

    @Test
    void aMissingPbsnodesNamesItsSetting() {
        runner.missing(List.of("/opt/pbs/bin/pbsnodes"));
        SchedulerReadException e = assertThrows(SchedulerReadException.class, adapter::read);
        assertTrue(e.getMessage().contains("setting agent.pbs.pbsnodes"), e.getMessage());
    }

    @Test
    void aRefusedDrainIsACommandFailure() {
        runner.failing(List.of("/opt/pbs/bin/pbsnodes", "-o"), 1,
                "Error marking node node7 - Unauthorized Request\n");
        SchedulerCommandException e = assertThrows(SchedulerCommandException.class,
                () -> adapter.offline("node7", "idle"));
        assertTrue(e.getMessage().contains("Unauthorized Request"), e.getMessage());
    }
}
