package io.hpcscale.agent.slurm;

import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandLine;
import java.util.List;
import java.util.Map;

/** The Slurm commands the agent runs, with the programs and slurm.conf of its settings. */
record SlurmCommands(String squeue, String sinfo, String scontrol, String sdiag, String slurmConf,
        CommandLimits limits) {
    static final String SQUEUE_SETTING = "agent.slurm.squeue";
    static final String SINFO_SETTING = "agent.slurm.sinfo";
    static final String SCONTROL_SETTING = "agent.slurm.scontrol";
    static final String SDIAG_SETTING = "agent.slurm.sdiag";
    /** Slurm keeps long reasons, but a short one reads better in sinfo. */
    static final int MAX_REASON = 120;
    /** A node name no cluster has, for the harmless probe of the right to drain. */
    static final String PROBE_NODE = "hpcscale-permission-probe";
    static final String PROBE_REASON = "hpcscale: permission probe, no such node";

    CommandLine jobsAsJson() {
        return command(SQUEUE_SETTING, squeue, "--json");
    }

    CommandLine nodesAsJson() {
        return command(SINFO_SETTING, sinfo, "--json");
    }

    CommandLine jobsAsPipes() {
        return command(SQUEUE_SETTING, squeue, "-h", "-r", "-o", SlurmPipeReader.SQUEUE_FORMAT);
    }

    CommandLine nodesAsPipes() {
        return command(SINFO_SETTING, sinfo, "-h", "-N", "-o", SlurmPipeReader.SINFO_FORMAT);
    }

    /** slurmctld's statistics, its job counters among them: answered from memory, whatever the number of jobs. */
    CommandLine statistics() {
        return command(SDIAG_SETTING, sdiag);
    }

    CommandLine drain(String node, String reason) {
        return command(SCONTROL_SETTING, scontrol, "update", "nodename=" + node, "state=drain", "reason=" + reason);
    }

    CommandLine requeue(String jobId) {
        return command(SCONTROL_SETTING, scontrol, "requeue", jobId);
    }

    /** Sets the job's {@code AdminComment}; an empty text clears it. */
    CommandLine adminComment(String jobId, String text) {
        return command(SCONTROL_SETTING, scontrol, "update", "jobid=" + jobId, "admincomment=" + text);
    }

    CommandLine resume(String node) {
        return command(SCONTROL_SETTING, scontrol, "update", "nodename=" + node, "state=resume");
    }

    private CommandLine command(String setting, String program, String... args) {
        List<String> argv = new java.util.ArrayList<>();
        argv.add(program);
        argv.addAll(List.of(args));
        return new CommandLine(argv, limits, setting, slurmConf == null ? Map.of() : Map.of("SLURM_CONF", slurmConf));
    }
}
