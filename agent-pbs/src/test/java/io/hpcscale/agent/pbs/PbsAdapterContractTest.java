package io.hpcscale.agent.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.agent.SchedulerAdapterContract;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter contract against the stand-in PBS server, which keeps node marks as a real OpenPBS 23.06 does
 * ({@link StandInPbs}): {@code pbsnodes -o -C} as the agent and as an administrator run it.
 */
class PbsAdapterContractTest extends SchedulerAdapterContract {
    @TempDir
    Path dir;

    private StandInPbs pbs;
    private PbsAdapter adapter;

    @BeforeEach
    void standIn() throws Exception {
        pbs = new StandInPbs(dir.resolve("pbs"));
        adapter = pbs.adapter();
    }

    @Override
    protected SchedulerAdapter adapter() {
        return adapter;
    }

    /** Free, in queue pinta00, with no job, in the fixture's pbsnodes output. */
    @Override
    protected String idleNode() {
        return "pinta007y000001";
    }

    @Override
    protected void offlineByAdministrator(String node, String comment) throws Exception {
        StandInPbs.Run run = pbs.pbsnodes(null, "-o", "-C", comment, node);
        assertEquals(0, run.exitCode(), run.stderr());
    }

    /** A job without its {@code job_state}, beside the fixture's jobs. */
    @Override
    protected String listAnUnreadableJob() throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode jobs = (ObjectNode) json.readTree(Fixtures.text(Fixtures.CLOUD_JOBS));
        ((ObjectNode) jobs.path("Jobs")).putObject("99.pbsserver").put("queue", "workq");
        pbs.write("broken-jobs.json", json.writeValueAsString(jobs));
        pbs.qstatPrints("broken-jobs.json");
        return "99.pbsserver";
    }
}
