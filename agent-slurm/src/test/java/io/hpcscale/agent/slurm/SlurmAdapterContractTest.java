package io.hpcscale.agent.slurm;

import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.agent.SchedulerAdapterContract;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter contract against a real Slurm 22.05, started once for the class: {@code scontrol update
 * state=drain reason=...} as the agent and as an administrator run it. Slurm always prints what it can read, so the
 * unreadable job comes from a {@code squeue} in front of the real one that adds an entry without its
 * {@code job_state}, as a Slurm of another version might print.
 */
class SlurmAdapterContractTest extends SchedulerAdapterContract {
    private static final CommandLimits LIMITS = new CommandLimits(Duration.ofSeconds(20), "agent.commandTimeout",
            1 << 20, "agent.commandMaxOutput");
    private static final String NODE = "node1";

    @TempDir
    static Path dir;

    private static RealSlurm slurm;
    private static Path squeue;
    private String heldJob;
    private final SchedulerAdapter adapter = new SlurmAdapter(new ZtExecCommandRunner(), new SlurmCommands(
            squeue.toString(), "sinfo", "scontrol", "sdiag", slurm.slurmConf().toString(), LIMITS),
            SlurmAdapter.Format.JSON, ZoneOffset.UTC);

    @BeforeAll
    static void startSlurm() throws IOException, InterruptedException {
        RealSlurm.assumeAvailable("Slurm adapter contract", dir);
        slurm = RealSlurm.start(dir.resolve("slurm"), "--static", "1");
        slurm.nodeStart(NODE);
        squeue = dir.resolve("squeue");
        Files.writeString(squeue, """
                #!/usr/bin/perl
                # The real squeue, and with --json a job it cannot read added when the file 'broken' exists.
                use strict;
                use warnings;
                use JSON::PP;
                open(my $squeue, '-|', 'squeue', @ARGV) or die "squeue: $!";
                my $out = do { local $/; <$squeue> };
                close($squeue);
                exit($? >> 8 || 1) if $? != 0;
                if (-e '%s' && grep { $_ eq '--json' } @ARGV) {
                    my $json = JSON::PP->new->canonical;
                    my $doc = $json->decode($out);
                    push @{$doc->{jobs}}, { job_id => 999999, name => 'broken' };
                    $out = $json->encode($doc);
                }
                print $out;
                """.formatted(dir.resolve("broken")));
        Files.setPosixFilePermissions(squeue, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @AfterAll
    static void stopSlurm() throws IOException, InterruptedException {
        if (slurm != null) {
            slurm.close();
        }
    }

    /** Each test begins with the node in service, no job of ours, and the real squeue's output alone. */
    @AfterEach
    void backInService() throws IOException, InterruptedException {
        Files.deleteIfExists(dir.resolve("broken"));
        if (heldJob != null) {
            slurm.scancel(List.of(heldJob));
        }
        if (slurm.node(NODE).path("reason").asText().isEmpty()) {
            return;
        }
        slurm.scontrol("update", "nodename=" + NODE, "state=resume");
    }

    @Override
    protected SchedulerAdapter adapter() {
        return adapter;
    }

    @Override
    protected String idleNode() {
        return NODE;
    }

    @Override
    protected void offlineByAdministrator(String node, String comment) throws Exception {
        slurm.scontrol("update", "nodename=" + node, "state=drain", "reason=" + comment);
    }

    /** A held job (so that it takes no node), and the entry squeue's stand-in adds. */
    @Override
    protected String listAnUnreadableJob() throws Exception {
        heldJob = slurm.sbatch("--hold", "--wrap", "sleep 600");
        Files.writeString(dir.resolve("broken"), "");
        return "999999";
    }
}
