package io.hpcscale.agent.pbs;

import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandLine;
import java.util.List;

/** The PBS commands the agent runs, with the programs configured in {@code agent.pbs.qstat} and {@code agent.pbs.pbsnodes}. */
record PbsCommands(String qstat, String pbsnodes, CommandLimits limits) {
    static final String QSTAT_SETTING = "agent.pbs.qstat";
    static final String PBSNODES_SETTING = "agent.pbs.pbsnodes";
    /** pbsnodes keeps at most 79 characters of a comment. */
    static final int MAX_COMMENT = 79;
    /**
     * Comment left on a node hpcscale returns to service. pbsnodes -r keeps the old comment, and a stale
     * "hpcscale:" marker would later make an administrator's comment-less offline look like hpcscale's own.
     */
    static final String RETURNED_COMMENT = "returned to service by hpcscale";
    /** A node name no PBS server has, for the harmless probe of the operator right. */
    static final String PROBE_NODE = "hpcscale-permission-probe";
    static final String PROBE_COMMENT = "hpcscale: permission probe, no such node";

    CommandLine listJobs() {
        return new CommandLine(List.of(qstat, "-f", "-t", "-F", "json"), limits, QSTAT_SETTING);
    }

    CommandLine listQueues() {
        return new CommandLine(List.of(qstat, "-Q", "-f", "-F", "json"), limits, QSTAT_SETTING);
    }

    CommandLine listNodes() {
        return new CommandLine(List.of(pbsnodes, "-a", "-F", "json"), limits, PBSNODES_SETTING);
    }

    CommandLine offline(String node, String comment) {
        return new CommandLine(List.of(pbsnodes, "-o", "-C", comment, node), limits, PBSNODES_SETTING);
    }

    /**
     * {@code qrerun} from the same directory as the configured {@code qstat} (PBS installs its client commands side
     * by side), or from the PATH when qstat is.
     */
    CommandLine rerun(String jobId) {
        return new CommandLine(List.of(besideQstat("qrerun"), jobId), limits, QSTAT_SETTING);
    }

    /**
     * {@code qalter -W comment="TEXT" JOB}, beside qstat like {@code qrerun}. The job's comment is writable by
     * operators and managers ({@code NO_USER_SET} in OpenPBS's {@code master_job_attr_def.xml}). qalter reads
     * {@code -W} as {@code name=value} pairs and a value runs to the next {@code =} unless it is quoted
     * ({@code parse_equal_string} in {@code src/lib/Libcmds/parse_equal.c}): the text is quoted, and cannot hold the
     * quote itself.
     */
    CommandLine comment(String jobId, String text) {
        return new CommandLine(List.of(besideQstat("qalter"), "-W", "comment=\"" + text.replace('"', '\'') + "\"",
                jobId), limits, QSTAT_SETTING);
    }

    private String besideQstat(String command) {
        int slash = qstat.lastIndexOf('/');
        return slash < 0 ? command : qstat.substring(0, slash + 1) + command;
    }

    CommandLine returnToService(String node) {
        return new CommandLine(List.of(pbsnodes, "-r", "-C", RETURNED_COMMENT, node), limits, PBSNODES_SETTING);
    }
}
