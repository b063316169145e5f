package io.hpcscale.common.config;

/** The programs that read the one properties file. */
public enum Component {
    PBS_AGENT("hpcscale-agent-pbs"),
    SLURM_AGENT("hpcscale-agent-slurm"),
    SCALER("hpcscale-scaler");

    private final String programName;

    Component(String programName) {
        this.programName = programName;
    }

    public String programName() {
        return programName;
    }
}
