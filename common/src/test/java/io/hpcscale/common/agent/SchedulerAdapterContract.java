package io.hpcscale.common.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SchedulerAdapter} must do, run against each scheduler's adapter (the fake, PBS's stand-in
 * server, a real Slurm): the agent's drain handshake rests on it. Taking a node out of service leaves a mark the next
 * read shows as hpcscale's; bringing it back leaves no mark of ours; an administrator's mark is never read as ours;
 * an entry the adapter cannot read is listed as unreadable, never dropped (its document is then kept as it was,
 * never taken for gone).
 */
public abstract class SchedulerAdapterContract {

    /** The adapter under test; the same instance for the whole of one test. */
    protected abstract SchedulerAdapter adapter();

    /** A node in service that no job uses, which the test may take out of service and back. */
    protected abstract String idleNode() throws Exception;

    /** Takes the node out of service as an administrator does, with this comment or reason. */
    protected abstract void offlineByAdministrator(String node, String comment) throws Exception;

    /**
     * Makes the scheduler list, besides its jobs, one the adapter cannot make sense of (a malformed entry, as a
     * scheduler of another version may print).
     *
     * @return that job's id
     */
    protected abstract String listAnUnreadableJob() throws Exception;

    private SchedulerNode read(String node) throws Exception {
        List<SchedulerNode> found = adapter().read().nodes().stream().filter(n -> n.name().equals(node)).toList();
        assertEquals(1, found.size(), "one node " + node + " in the read");
        return found.get(0);
    }

    @Test
    void aNodeTakenOutOfServiceReadsAsOursNextTime() throws Exception {
        String node = idleNode();
        assertEquals(OfflineMark.NONE, read(node).offline(), "in service before");
        adapter().offline(node, "idle for 5m, not needed by 0 queued jobs");
        assertEquals(OfflineMark.HPCSCALE, read(node).offline(), "taken out of service by hpcscale");
        adapter().bringBack(node);
    }

    @Test
    void aNodeBroughtBackCarriesNoMarkOfOurs() throws Exception {
        String node = idleNode();
        adapter().offline(node, "idle for 5m");
        adapter().bringBack(node);
        SchedulerNode back = read(node);
        assertEquals(OfflineMark.NONE, back.offline(), "in service again: " + back.rawState());
    }

    @Test
    void anAdministratorsMarkIsNeverReadAsOurs() throws Exception {
        String node = idleNode();
        offlineByAdministrator(node, "bad DIMM, ticket 4711");
        SchedulerNode held = read(node);
        assertTrue(held.isOffline(), "offline: " + held.rawState());
        assertEquals(OfflineMark.OTHER, held.offline(), "the administrator's: " + held.rawState());
    }

    @Test
    void anUnreadableJobIsListedAndNeverDropped() throws Exception {
        String id = listAnUnreadableJob();
        SchedulerSnapshot snapshot = adapter().read();
        assertTrue(snapshot.unreadableJobIds().contains(id), id + " listed as unreadable: "
                + snapshot.unreadableJobIds());
        assertFalse(snapshot.jobs().stream().anyMatch(job -> job.id().equals(id)), id + " is not read as a job");
        assertFalse(snapshot.jobs().isEmpty(), "the other jobs are still read");
    }
}
