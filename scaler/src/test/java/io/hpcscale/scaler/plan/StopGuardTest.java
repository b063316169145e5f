package io.hpcscale.scaler.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.documents.StopKind;
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
                offline, byHpcscale, down, false, 16, 0, 65536, 0, 0, 0, jobs, null, REQUESTED.plusSeconds(60),
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
        assertEquals(Optional.of("an administrator holds its node n1 offline (state): hpcscale leaves it as it is"),
                StopGuard.refusal(StopKind.DRAINED, vm(true, false, false, List.of(), REQUESTED), DRAIN),
                "offline by an administrator, not by the drain");
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
    void aFailedBootIsStoppedWhenItsNodeNeverReportedOrIsDownWithNoJobAndTakenOutOfService() {
        assertEquals(Optional.empty(), StopGuard.refusal(StopKind.BOOT_FAILURE, null, null));
        assertEquals(Optional.empty(), StopGuard.refusal(StopKind.BOOT_FAILURE,
                vm(true, true, true, List.of(), REQUESTED), DRAIN));
    }

    @Test
    void aFailedBootWhoseNodeIsDownButStillInServiceIsNotStopped() {
        String inService = "the agent does not show its node taken out of service since the drain request, so a job "
                + "could still be placed on it";
        assertEquals(Optional.of(inService), StopGuard.refusal(StopKind.BOOT_FAILURE,
                vm(false, false, true, List.of(), null), null), "state-unknown,down after a restart may be up now");
        assertEquals(Optional.of(inService), StopGuard.refusal(StopKind.BOOT_FAILURE,
                vm(false, false, true, List.of(), null), DRAIN), "the agent has not taken it offline yet");
    }

    @Test
    void aDrainedNodeTheSchedulerCannotReachIsNotStopped() {
        assertEquals(Optional.of("the scheduler cannot reach its node (state), so what runs there is unknown; it is "
                + "stopped once the node reports in and shows no job"),
                StopGuard.refusal(StopKind.DRAINED, vm(true, true, true, List.of(), REQUESTED), DRAIN));
    }

    @Test
    void aNodeAnAdministratorHoldsOfflineIsNeverStoppedWhateverTheKind() {
        VmDocument held = vm(true, false, true, List.of(), REQUESTED);
        for (StopKind kind : List.of(StopKind.DRAINED, StopKind.BOOT_FAILURE, StopKind.POWER_SAVING,
                StopKind.SURPLUS, StopKind.REMOVED)) {
            assertEquals(Optional.of("an administrator holds its node n1 offline (state): hpcscale leaves it as it "
                    + "is"), StopGuard.refusal(kind, held, DRAIN), kind.name());
        }
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
