package io.hpcscale.common.config;

/** The programs that read the one properties file. */
public enum Component {
    PBS_AGENT("hpcscale-agent-pbs", "The hpcscale agent for PBS Professional and OpenPBS: every agent.interval it "
            + "reads qstat and pbsnodes, writes what changed to the ClusterLoad store, and carries out drain requests."),
    SLURM_AGENT("hpcscale-agent-slurm", "The hpcscale agent for Slurm: every agent.interval it reads squeue and "
            + "sinfo, writes what changed to the ClusterLoad store, and carries out drain requests."),
    SCALER("hpcscale-scaler", "The hpcscale scaler: plans each pool from the ClusterLoad store and starts or stops "
            + "instances through the pool's cloud provider.");

    private final String programName;
    private final String description;

    Component(String programName, String description) {
        this.programName = programName;
        this.description = description;
    }

    public String programName() {
        return programName;
    }

    public String description() {
        return description;
    }
}
