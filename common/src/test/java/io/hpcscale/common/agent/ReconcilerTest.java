package io.hpcscale.common.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReconcilerTest {
    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

    private final Reconciler reconciler = new Reconciler();

    private static JobDocument job(String id, JobState state) {
        return new JobDocument(id, "batch", id, "batch", state, 1, List.of(new Chunk(1, 4, 1024, 0)), Placement.free,
                false, T0, "agent-head-fake");
    }

    private static VmDocument vm(String name, NodeJobStatus status, Instant seenAt) {
        return new VmDocument(name, "batch", name, status, status == NodeJobStatus.Busy ? "job-busy" : "free", false,
                false, false, false, 16, 0, 65536, 0, 0, 0, List.of(), T0, seenAt, null, "agent-head-fake");
    }

    private static WrittenDocuments written(List<JobDocument> jobs, List<VmDocument> vms) {
        Map<DocumentKey, JobDocument> jobsByKey = new HashMap<>();
        jobs.forEach(j -> jobsByKey.put(j.key(), j));
        Map<DocumentKey, VmDocument> vmsByKey = new HashMap<>();
        vms.forEach(v -> vmsByKey.put(v.key(), v));
        return new WrittenDocuments(jobsByKey, vmsByKey);
    }

    private static DesiredDocuments desired(List<JobDocument> jobs, List<VmDocument> vms) {
        WrittenDocuments w = written(jobs, vms);
        return new DesiredDocuments(w.jobs(), w.vms());
    }

    @Test
    void deletesTheDocumentOfANodeTheSchedulerNoLongerLists() {
        VmDocument n1 = vm("n1", NodeJobStatus.Free, T0);
        VmDocument n2 = vm("n2", NodeJobStatus.Free, T0);
        ChangeSet changes = reconciler.diff(desired(List.of(), List.of(n1.withSeenAt(T0.plusSeconds(120)))),
                written(List.of(), List.of(n1, n2)), Set.of(), Set.of());
        assertEquals(List.of(n2.key()), changes.deletes());
        assertEquals(Set.of(n1.key()), changes.after().vms().keySet(), "what the store holds once it is applied");
    }

    @Test
    void keepsTheDocumentOfANodeTheSchedulerListedButCouldNotRead() {
        VmDocument n1 = vm("n1", NodeJobStatus.Busy, T0);
        ChangeSet changes = reconciler.diff(desired(List.of(), List.of()), written(List.of(), List.of(n1)),
                Set.of(), Set.of("n1"));
        assertTrue(changes.deletes().isEmpty() && changes.upserts().isEmpty());
        assertEquals(n1, changes.after().vms().get(n1.key()), "kept as it was, so the scaler still sees it busy");
    }

    @Test
    void keepsTheDocumentOfAJobTheSchedulerListedButCouldNotRead() {
        JobDocument gone = job("1.s", JobState.Queued);
        JobDocument unreadable = job("2.s", JobState.Running);
        ChangeSet changes = reconciler.diff(desired(List.of(), List.of()), written(List.of(gone, unreadable),
                List.of()), Set.of("2.s"), Set.of());
        assertEquals(List.of(gone.key()), changes.deletes());
        assertEquals(Set.of(unreadable.key()), changes.after().jobs().keySet());
    }

    @Test
    void aNodeSeenAgainInTheSameStateIsNotRewritten() {
        VmDocument before = vm("n1", NodeJobStatus.Free, T0);
        ChangeSet changes = reconciler.diff(desired(List.of(), List.of(before.withSeenAt(T0.plusSeconds(120)))),
                written(List.of(), List.of(before)), Set.of(), Set.of());
        assertTrue(changes.upserts().isEmpty(), "a read time alone is not worth a write");
        assertEquals(before, changes.after().vms().get(before.key()), "the stored version, with its read time");
    }

    @Test
    void aChangedNodeIsWrittenOnceAndRememberedAsWritten() {
        VmDocument before = vm("n1", NodeJobStatus.Free, T0);
        VmDocument busy = vm("n1", NodeJobStatus.Busy, T0.plusSeconds(120));
        ChangeSet changes = reconciler.diff(desired(List.of(), List.of(busy)), written(List.of(), List.of(before)),
                Set.of(), Set.of());
        assertEquals(List.of(busy), changes.upserts());
        assertEquals(busy, changes.after().vms().get(busy.key()));
        ChangeSet next = reconciler.diff(desired(List.of(), List.of(busy.withSeenAt(T0.plusSeconds(240)))),
                changes.after(), Set.of(), Set.of());
        assertTrue(next.upserts().isEmpty());
    }
}
