package io.hpcscale.common.agent;

import static io.hpcscale.common.agent.FakeSchedulerAdapter.freeNode;
import static io.hpcscale.common.agent.FakeSchedulerAdapter.withMark;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.VmDocument;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Whose mark an offline node carries when a restart dropped its comment: the store's evidence, or a mark read. */
class OfflineOwnershipTest {
    private static final Instant T0 = Instant.parse("2026-11-26T09:00:00Z");
    private final OfflineOwnership ownership = new OfflineOwnership();
    private final DrainDocument drain = DrainDocument.request("batch", "n1", "idle 5m", T0);

    private static VmDocument drainedByHpcscale() {
        return new VmDocument("n1", "batch", "n1", NodeJobStatus.Free, "offline", true, true, false, false, 16, 0,
                65536, 0, 0, 0, List.of(), T0, T0, T0, "agent-head-fake");
    }

    private OfflineMark resolve(OfflineMark shown, Map<String, VmDocument> previous) {
        SchedulerSnapshot read = SchedulerSnapshot.of(List.of(), List.of(withMark(freeNode("n1", "batch", 16),
                shown)));
        return ownership.resolve(read, Map.of("n1", drain), previous).snapshot().nodes().get(0).offline();
    }

    @Test
    void aMarkReadAsAnAdministratorsOutranksTheStoresOlderEvidenceOnceARestartErasesIt() {
        assertEquals(OfflineMark.OTHER, resolve(OfflineMark.OTHER, Map.of("n1", drainedByHpcscale())));
        assertEquals(OfflineMark.OTHER, resolve(OfflineMark.UNMARKED, Map.of("n1", drainedByHpcscale())));
        assertEquals(OfflineMark.OTHER, resolve(OfflineMark.UNMARKED, Map.of("n1", drainedByHpcscale())),
                "still pinned while the node shows no mark");
    }

    @Test
    void aMarkOnlyInferredAsSomeoneElsesIsNotPinned() {
        assertEquals(OfflineMark.OTHER, resolve(OfflineMark.UNMARKED, Map.of()), "no evidence yet: someone else's");
        assertEquals(OfflineMark.HPCSCALE, resolve(OfflineMark.UNMARKED, Map.of("n1", drainedByHpcscale())),
                "the evidence, once written, decides");
    }

    @Test
    void aMarkReadAgainReplacesAPinnedOne() {
        resolve(OfflineMark.OTHER, Map.of());
        resolve(OfflineMark.NONE, Map.of());
        assertEquals(OfflineMark.HPCSCALE, resolve(OfflineMark.UNMARKED, Map.of("n1", drainedByHpcscale())));
    }

    private static VmDocument inServiceEchoing(Instant drainRequestedAt) {
        return new VmDocument("n1", "batch", "n1", NodeJobStatus.Free, "free", false, false, false, false, 16, 0,
                65536, 0, 0, 0, List.of(), T0, T0, drainRequestedAt, "agent-head-fake");
    }

    private OfflineOwnership.Resolved resolveAll(SchedulerSnapshot read, Map<String, VmDocument> previous) {
        return ownership.resolve(read, Map.of("n1", drain), previous);
    }

    @Test
    void aNodeLastShownInServiceEchoingTheDrainThatStandsIsOursAndItsMarkIsWrittenAgain() {
        SchedulerSnapshot read = SchedulerSnapshot.of(List.of(), List.of(withMark(freeNode("n1", "batch", 16),
                OfflineMark.UNMARKED)));
        OfflineOwnership.Resolved resolved = resolveAll(read, Map.of("n1", inServiceEchoing(T0)));
        assertEquals(OfflineMark.HPCSCALE, resolved.snapshot().nodes().get(0).offline());
        assertEquals(java.util.Set.of("n1"), resolved.restored());
    }

    @Test
    void anEchoOfAnEarlierDrainIsNoEvidence() {
        SchedulerSnapshot read = SchedulerSnapshot.of(List.of(), List.of(withMark(freeNode("n1", "batch", 16),
                OfflineMark.UNMARKED)));
        OfflineOwnership.Resolved resolved = resolveAll(read, Map.of("n1", inServiceEchoing(T0.minusSeconds(600))));
        assertEquals(OfflineMark.OTHER, resolved.snapshot().nodes().get(0).offline());
        assertEquals(java.util.Set.of(), resolved.restored());
    }

    @Test
    void aReadWithoutUnmarkedNodesIsPassedOnAsItIs() {
        SchedulerSnapshot read = SchedulerSnapshot.of(List.of(), List.of(withMark(freeNode("n1", "batch", 16),
                OfflineMark.HPCSCALE), withMark(freeNode("n2", "batch", 16), OfflineMark.OTHER)));
        OfflineOwnership.Resolved resolved = resolveAll(read, Map.of("n1", drainedByHpcscale()));
        assertEquals(read, resolved.snapshot());
        assertEquals(java.util.Set.of(), resolved.restored());
    }

    @Test
    void aPinnedMarkOutlivesAReadInWhichTheNodeWasUnreadable() {
        resolve(OfflineMark.OTHER, Map.of());
        ownership.resolve(new SchedulerSnapshot(List.of(), List.of(), java.util.Set.of(), java.util.Set.of("n1")),
                Map.of("n1", drain), Map.of());
        assertEquals(OfflineMark.OTHER, resolve(OfflineMark.UNMARKED, Map.of("n1", drainedByHpcscale())),
                "a node that could not be read is not forgotten");
    }

    @Test
    void ourOwnMarkReadThenErasedIsDecidedByTheEvidence() {
        resolve(OfflineMark.HPCSCALE, Map.of());
        assertEquals(OfflineMark.HPCSCALE, resolve(OfflineMark.UNMARKED, Map.of("n1", drainedByHpcscale())));
    }
}
