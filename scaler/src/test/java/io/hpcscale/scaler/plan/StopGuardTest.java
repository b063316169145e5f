package io.hpcscale.scaler.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.StopKind;
import io.hpcscale.common.model.VmDocument;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StopGuardTest {
    private static final Instant REQUESTED = Instant.parse("2026-11-22T11:58:00Z");
    private static final DrainDocument DRAIN = DrainDocument.request("p", "n1", "idle", REQUESTED);
    private static final String NOT_DRAINED = "the agent does not show it drained and empty since the drain request";

    /** The node as the agent read it. */
    private static VmDocument vm(boolean offline, boolean byHpcscale, boolean down, List<String> jobs,
            Instant drainRequestedAt) {
        return new VmDocument("n1", "p", "n1", jobs.isEmpty() ? NodeJobStatus.Free : NodeJobStatus.Busy, "state",
                offline, byHpcscale, down, 16, 0, 65536, 0, 0, 0, jobs, null, REQUESTED.plusSeconds(60),
                drainRequestedAt, "agent-h-pbs");
    }

    private static VmDocument drained(List<String> jobs) {
        return vm(true, true, false, jobs, REQUESTED);
    }

    @Test
    void aDrainedNodeIsStoppedOnlyWhenTheAgentShowsItOfflineByHpcscaleAndEmptyForThisRequest() {
        assertEquals(Optional.empty(), StopGuard.refusal(StopKind.DRAINED, drained(List.of()), DRAIN));
        assertEquals(Optional.of(NOT_DRAINED), StopGuard.refusal(StopKind.DRAINED, drained(List.of("9.s")), DRAIN),
                "a job landed before the node went offline");
        assertEquals(Optional.of(NOT_DRAINED), StopGuard.refusal(StopKind.DRAINED,
                vm(true, true, false, List.of(), REQUESTED.minusSeconds(600)), DRAIN), "read for an older request");
        assertEquals(Optional.of(NOT_DRAINED), StopGuard.refusal(StopKind.DRAINED,
                vm(true, false, false, List.of(), REQUESTED), DRAIN), "offline by an administrator, not by the drain");
        assertEquals(Optional.of(NOT_DRAINED), StopGuard.refusal(StopKind.DRAINED,
                vm(false, false, false, List.of(), REQUESTED), DRAIN), "still in service");
        assertEquals(Optional.of(NOT_DRAINED), StopGuard.refusal(StopKind.DRAINED, null, DRAIN));
    }

    @Test
    void aDrainedNodeWhoseRequestWasWithdrawnIsNotStopped() {
        assertEquals(Optional.of("its drain request is gone"),
                StopGuard.refusal(StopKind.DRAINED, drained(List.of()), null));
    }

    @Test
    void aFailedBootIsStoppedWhenItsNodeNeverReportedOrIsDownWithNoJob() {
        assertEquals(Optional.empty(), StopGuard.refusal(StopKind.BOOT_FAILURE, null, null));
        assertEquals(Optional.empty(), StopGuard.refusal(StopKind.BOOT_FAILURE,
                vm(false, false, true, List.of(), null), null));
    }

    @Test
    void aFailedBootIsNotStoppedOnceItsNodeReportedOrWhileTheSchedulerListsAJobOnIt() {
        assertEquals(Optional.of("its node reported to the scheduler"), StopGuard.refusal(StopKind.BOOT_FAILURE,
                vm(false, false, false, List.of(), null), null));
        assertEquals(Optional.of("the scheduler lists a job on its node"), StopGuard.refusal(StopKind.BOOT_FAILURE,
                vm(false, false, true, List.of("17"), null), null), "down, but only the scheduler may give up a job");
    }

    @Test
    void aNodeSlurmSuspendsIsStoppedOnlyWhenTheAgentReportsItWithoutAJob() {
        assertEquals(Optional.empty(), StopGuard.refusal(StopKind.POWER_SAVING,
                vm(false, false, false, List.of(), null), null));
        assertEquals(Optional.of("the scheduler lists a job on its node"), StopGuard.refusal(StopKind.POWER_SAVING,
                vm(false, false, false, List.of("17"), null), null));
        assertEquals(Optional.of("the agent does not report its node"),
                StopGuard.refusal(StopKind.POWER_SAVING, null, null));
    }
}
