package io.hpcscale.agent.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.agent.pbs.StandInPbsServer.NodeSpec;
import io.hpcscale.agent.pbs.StandInPbsServer.Submission;
import io.hpcscale.common.model.VmDocument;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a real OpenPBS 23.06 server did to hpcscale (../shared/notes/pbs-as-it-really-behaves.md), replayed through the
 * real agent and scaler command lines against the stand-in server that behaves like it. Each test is one thing that
 * went wrong on the real server.
 */
class PbsAsItReallyAnswersTest {
    @TempDir
    Path dir;

    private static List<NodeSpec> nodes(int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> new NodeSpec("cn00" + i, "workq", 2, 4 * 1024 * 1024, 0))
                .toList();
    }

    /** Runs rounds until the job runs; fails after {@code rounds}. */
    private static void untilRunning(PbsCluster cluster, String job, int rounds) throws Exception {
        for (int i = 0; i < rounds && !cluster.server().running(job); i++) {
            cluster.round();
        }
        assertTrue(cluster.server().running(job), job + " did not start; state " + cluster.server().state(job));
    }

    @Test
    void aNodeHoldingASuspendedJobIsNeitherDrainedNorStopped() throws Exception {
        try (PbsCluster cluster = new PbsCluster(dir, nodes(2), "")) {
            String job = cluster.server().submit(Submission.of("workq", "1:ncpus=2", "free"));
            untilRunning(cluster, job, 4);
            cluster.server().suspend(job);
            for (int i = 0; i < 4; i++) {
                cluster.round();
            }
            VmDocument node = cluster.vm("cn001").orElseThrow();
            assertEquals(List.of(job), node.jobIds(), "pbsnodes lists no job on cn001, but " + job
                    + "'s exec_host names it: " + node);
            assertFalse(node.idle());
            assertEquals(0, cluster.pbsnodesCalls("-o", "cn001"), "the node of a suspended job was drained");
            assertEquals(0, cluster.powered("stop", "cn001"), "the node of a suspended job was stopped");
            assertEquals(List.of(), cluster.server().violations());

            cluster.server().resume(job);
            cluster.server().finish(job);
            for (int i = 0; i < 3 && cluster.powered("stop", "cn001") == 0; i++) {
                cluster.round();
            }
            assertEquals(1, cluster.powered("stop", "cn001"), "once the job ended, its node is drained and stopped");
        }
    }

    @Test
    void aJobStartingWhenTheServerRestartedKeepsItsNodeThoughPbsnodesNoLongerListsIt() throws Exception {
        try (PbsCluster cluster = new PbsCluster(dir, nodes(2), "")) {
            String first = cluster.server().submit(Submission.of("workq", "1:ncpus=2", "free"));
            untilRunning(cluster, first, 4);
            cluster.server().finish(first);
            String job = cluster.server().submit(Submission.of("workq", "1:ncpus=2", "free"));
            cluster.server().tick();
            assertTrue(cluster.server().running(job));
            // The job is in PRERUN when pbs_server goes down: it comes back running, unlisted on its node.
            cluster.server().serverStops();
            cluster.server().serverStarts();
            String duringSettle = cluster.agentOnce();
            assertTrue(cluster.vm("cn001").orElseThrow().down(), duringSettle);
            cluster.scaler("once");
            cluster.server().settle();
            for (int i = 0; i < 4; i++) {
                cluster.round();
            }
            assertEquals(List.of(job), cluster.vm("cn001").orElseThrow().jobIds());
            assertEquals(0, cluster.pbsnodesCalls("-o", "cn001"));
            assertEquals(0, cluster.powered("stop", "cn001"));
            assertEquals(List.of(), cluster.server().violations());
        }
    }

    @Test
    void aNodeHpcscaleDrainedIsReturnedToServiceAfterTheServerRestartDroppedItsComment() throws Exception {
        try (PbsCluster cluster = new PbsCluster(dir, nodes(1), "")) {
            String first = cluster.server().submit(Submission.of("workq", "1:ncpus=2", "free"));
            untilRunning(cluster, first, 4);
            cluster.server().finish(first);
            for (int i = 0; i < 4 && cluster.powered("stop", "cn001") == 0; i++) {
                cluster.round();
            }
            assertEquals(1, cluster.powered("stop", "cn001"), "the idle node is drained and stopped");
            assertTrue(cluster.pbs().offline("cn001"));

            cluster.server().serverStops();
            cluster.server().serverStarts();
            cluster.server().settle();
            String job = cluster.server().submit(Submission.of("workq", "1:ncpus=2", "free"));
            untilRunning(cluster, job, 6);
            assertEquals(2, cluster.powered("start", "cn001"));
            assertFalse(cluster.pbs().offline("cn001"), "hpcscale returned its own node to service");
        }
    }

    @Test
    void aNodeAnAdministratorTookOfflineIsNeverStartedAndStatusSaysWhoHoldsIt() throws Exception {
        try (PbsCluster cluster = new PbsCluster(dir, nodes(2), "")) {
            assertEquals(0, cluster.pbs().pbsnodes(null, "-o", "-C", "maintenance: disk failing", "cn001")
                    .exitCode());
            // The comment is gone after a restart; the mark is still the administrator's.
            cluster.server().serverStops();
            cluster.server().serverStarts();
            cluster.server().settle();
            cluster.server().submit(Submission.of("workq", "1:ncpus=2", "free"));
            cluster.server().submit(Submission.of("workq", "1:ncpus=2", "free"));
            for (int i = 0; i < 4; i++) {
                cluster.round();
            }
            assertEquals(0, cluster.powered("start", "cn001"), "the administrator's node was started");
            assertEquals(1, cluster.powered("start", "cn002"));
            assertTrue(cluster.pbs().offline("cn001"));
            String status = cluster.scaler("status");
            assertTrue(status.contains("held offline by an administrator, left alone: cn001 (stopped)"), status);
        }
    }

    @Test
    void theUnusedCpusOfAJobExclusiveNodeAreNoRoomForAnotherJob() throws Exception {
        try (PbsCluster cluster = new PbsCluster(dir, nodes(2), "")) {
            String exclusive = cluster.server().submit(Submission.of("workq", "1:ncpus=1", "excl"));
            untilRunning(cluster, exclusive, 4);
            cluster.agentOnce();
            assertTrue(cluster.vm("cn001").orElseThrow().exclusive());
            String small = cluster.server().submit(Submission.of("workq", "1:ncpus=1", "free"));
            untilRunning(cluster, small, 4);
            assertEquals(1, cluster.powered("start", "cn002"), "the queued job needs a node of its own");
        }
    }

    @Test
    void checkTellsAnAgentThatIsNoOperatorHowToBecomeOne() throws Exception {
        String user = System.getProperty("user.name");
        try (PbsCluster cluster = new PbsCluster(dir, nodes(1), "")) {
            // The README's line before this fix: the server sees its clients as user@localhost and refuses it.
            cluster.pbs().operators(user + "@headnode.example.com");
            AgentProcess.Result refused = cluster.agent(null, "check", "--config", cluster.config().toString());
            assertEquals(1, refused.exitCode(), refused.stdout() + refused.stderr());
            assertTrue(refused.stdout().contains("problem drain right: the PBS server refuses pbsnodes -o to " + user)
                    && refused.stdout().contains("set server operators += " + user + "@*"), refused.stdout());

            cluster.pbs().operators(user + "@*");
            AgentProcess.Result granted = cluster.agent(null, "check", "--config", cluster.config().toString());
            assertEquals(0, granted.exitCode(), granted.stdout() + granted.stderr());
            assertTrue(granted.stdout().contains("ok      drain right: pbsnodes -o is allowed"), granted.stdout());
            assertFalse(cluster.pbs().offline(PbsCommands.PROBE_NODE), "the probe changed nothing");
        }
    }
}
