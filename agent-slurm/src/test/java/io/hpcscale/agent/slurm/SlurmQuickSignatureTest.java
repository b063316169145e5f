package io.hpcscale.agent.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.ZoneOffset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quick check between full reads, through the real command runner and a stand-in sdiag. */
class SlurmQuickSignatureTest {
    private static final CommandLimits LIMITS = new CommandLimits(Duration.ofSeconds(5), "agent.commandTimeout",
            1 << 20, "agent.commandMaxOutput");

    @TempDir
    Path dir;

    private SlurmAdapter adapter;
    private Path calls;

    @BeforeEach
    void setUp() throws IOException {
        calls = dir.resolve("calls.log");
        Path sdiag = dir.resolve("sdiag");
        Files.writeString(sdiag, "#!/bin/sh\necho \"sdiag $*\" >> " + calls + "\n"
                + "[ -f " + dir.resolve("down") + " ] && { echo 'slurm_get_statistics: Unable to contact slurm "
                + "controller (connect failure)' >&2; exit 1; }\nexec cat " + dir.resolve("sdiag.txt") + "\n");
        Files.setPosixFilePermissions(sdiag, PosixFilePermissions.fromString("rwxr-xr-x"));
        sdiagPrints(SlurmFixtures.text("sdiag.txt"));
        adapter = new SlurmAdapter(new ZtExecCommandRunner(), new SlurmCommands("squeue", "sinfo", "scontrol",
                sdiag.toString(), null, LIMITS), SlurmAdapter.Format.JSON, ZoneOffset.UTC);
    }

    private void sdiagPrints(String output) throws IOException {
        Files.writeString(dir.resolve("sdiag.txt"), output);
    }

    @Test
    void isSlurmctldsJobCountersAndTheSameWhileTheyStay() throws Exception {
        String first = adapter.quickSignature().orElseThrow();
        assertEquals("submitted=1 started=0 completed=0 canceled=0 failed=0 pending=1 running=0", first);
        assertEquals(first, adapter.quickSignature().orElseThrow());
        assertEquals(2, Files.readAllLines(calls).size(), "sdiag alone, once a call");
    }

    @Test
    void changesWhenAJobIsSubmittedStartsOrEnds() throws Exception {
        String fixture = SlurmFixtures.text("sdiag.txt");
        String before = adapter.quickSignature().orElseThrow();
        for (String[] change : new String[][] {{"Jobs submitted: 1", "Jobs submitted: 2"},
                {"Jobs started:   0", "Jobs started:   1"}, {"Jobs completed: 0", "Jobs completed: 1"},
                {"Jobs canceled:  0", "Jobs canceled:  1"}, {"Jobs running:   0", "Jobs running:   1"}}) {
            assertTrue(fixture.contains(change[0]), change[0]);
            sdiagPrints(fixture.replace(change[0], change[1]));
            assertNotEquals(before, adapter.quickSignature().orElseThrow(), change[1]);
        }
        sdiagPrints(fixture.replace("Last queue length: 0", "Last queue length: 7")
                .replace("REQUEST_PING                            ( 1008) count:1", "REQUEST_PING ( 1008) count:9"));
        assertEquals(before, adapter.quickSignature().orElseThrow(), "scheduling statistics are not job changes");
    }

    @Test
    void aFailingSdiagFailsLikeAFullRead() throws Exception {
        Files.writeString(dir.resolve("down"), "");
        SchedulerReadException e = assertThrows(SchedulerReadException.class, adapter::quickSignature);
        assertTrue(e.getMessage().contains("exited with status 1: slurm_get_statistics: Unable to contact slurm "
                + "controller") && e.getMessage().endsWith("nothing was changed"), e.getMessage());
    }

    @Test
    void outputWithoutJobCountersNamesTheSetting() throws Exception {
        sdiagPrints("sdiag: error: Access denied\n");
        SchedulerReadException e = assertThrows(SchedulerReadException.class, adapter::quickSignature);
        assertTrue(e.getMessage().contains("printed no job counters (it has no \"Jobs submitted:\" line); is it "
                + "Slurm's sdiag (setting agent.slurm.sdiag)?"), e.getMessage());
    }
}
