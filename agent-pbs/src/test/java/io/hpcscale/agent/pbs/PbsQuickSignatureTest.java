package io.hpcscale.agent.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.agent.SchedulerReadException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quick check between full reads, through the real command runner and the stand-in qstat. */
class PbsQuickSignatureTest {
    @TempDir
    Path dir;

    private StandInPbs pbs;
    private PbsAdapter adapter;

    @BeforeEach
    void setUp() throws Exception {
        pbs = new StandInPbs(dir.resolve("bin"));
        adapter = pbs.adapter();
    }

    private void queues(String debugTotal, String debugStates, String debugStarted) throws Exception {
        pbs.write("queues.json", """
                {"timestamp":1751720368,"pbs_version":"2022.1.7","pbs_server":"pbsserver","Queue":{
                  "workq":{"queue_type":"Execution","total_jobs":0,
                           "state_count":"Transit:0 Queued:0 Held:0 Waiting:0 Running:0 Exiting:0 Begun:0 ",
                           "enabled":"True","started":"True"},
                  "debug":{"queue_type":"Execution","total_jobs":%s,"state_count":"%s","resources_assigned":{"ncpus":8},
                           "enabled":"True","started":"%s"}}}
                """.formatted(debugTotal, debugStates, debugStarted));
    }

    @Test
    void isTheSameWhileNothingChangesAndAsksOnlyQstatQ() throws Exception {
        queues("3", "Transit:0 Queued:2 Held:0 Waiting:0 Running:1 Exiting:0 Begun:0 ", "True");
        String first = adapter.quickSignature().orElseThrow();
        assertEquals(first, adapter.quickSignature().orElseThrow());
        assertEquals(List.of("qstat -Q -f -F json", "qstat -Q -f -F json"), pbs.calls());
        assertEquals("debug total_jobs=3 state_count=Transit:0 Queued:2 Held:0 Waiting:0 Running:1 Exiting:0 Begun:0; "
                + "workq total_jobs=0 state_count=Transit:0 Queued:0 Held:0 Waiting:0 Running:0 Exiting:0 Begun:0",
                first);
    }

    @Test
    void changesWhenAJobIsQueuedStartsOrEndsOrAQueueIsStopped() throws Exception {
        queues("3", "Transit:0 Queued:2 Held:0 Waiting:0 Running:1 Exiting:0 Begun:0 ", "True");
        String before = adapter.quickSignature().orElseThrow();
        queues("4", "Transit:0 Queued:3 Held:0 Waiting:0 Running:1 Exiting:0 Begun:0 ", "True");
        String queued = adapter.quickSignature().orElseThrow();
        queues("4", "Transit:0 Queued:2 Held:0 Waiting:0 Running:2 Exiting:0 Begun:0 ", "True");
        String started = adapter.quickSignature().orElseThrow();
        queues("3", "Transit:0 Queued:2 Held:0 Waiting:0 Running:1 Exiting:0 Begun:0 ", "False");
        String stopped = adapter.quickSignature().orElseThrow();
        assertEquals(5, List.of(before, queued, started, stopped, "").stream().distinct().count(),
                List.of(before, queued, started, stopped).toString());
        queues("3", "Transit:0 Queued:2 Held:0 Waiting:0 Running:1 Exiting:0 Begun:0 ", "True");
        assertEquals(before, adapter.quickSignature().orElseThrow(), "back as it was");
    }

    @Test
    void aFailingQstatFailsLikeAFullRead() throws Exception {
        pbs.queuesFail();
        SchedulerReadException e = assertThrows(SchedulerReadException.class, adapter::quickSignature);
        assertTrue(e.getMessage().contains("exited with status 2: qstat: cannot connect to server pbsserver")
                && e.getMessage().endsWith("nothing was changed"), e.getMessage());
    }

    @Test
    void outputThatIsNotPbsQueuesFailsTheCheck() throws Exception {
        pbs.write("queues.json", "qstat: Unknown queue\n");
        SchedulerReadException garbage = assertThrows(SchedulerReadException.class, adapter::quickSignature);
        assertTrue(garbage.getMessage().contains("printed output that cannot be read as JSON"), garbage.getMessage());
        pbs.write("queues.json", "{\"pbs_server\":\"s\",\"Queue\":[]}");
        SchedulerReadException array = assertThrows(SchedulerReadException.class, adapter::quickSignature);
        assertTrue(array.getMessage().contains("\"Queue\" should hold an object but holds an array"),
                array.getMessage());
    }
}
