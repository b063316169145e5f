package io.hpcscale.scaler.plan;

import io.hpcscale.scaler.cloud.Instance;
import java.util.List;

/**
 * What the scaler should do for one pool this cycle, each action with its reason.
 *
 * @param demand what the queued jobs need, for logging and status
 */
public record Plan(
        String pool,
        List<Start> starts,
        Create create,
        List<DrainRequest> drains,
        List<CancelDrain> cancels,
        List<Stop> stops,
        List<PowerDone> powerDone,
        List<Note> notes,
        Demand demand) {

    public Plan {
        starts = List.copyOf(starts);
        drains = List.copyOf(drains);
        cancels = List.copyOf(cancels);
        stops = List.copyOf(stops);
        powerDone = List.copyOf(powerDone);
        notes = List.copyOf(notes);
    }

    /**
     * Start a stopped instance; its drain request, if any, is withdrawn once it starts.
     *
     * @param powerRequest it answers Slurm's resume request for the node, which is deleted once it starts
     */
    public record Start(Instance instance, String reason, boolean withdrawDrain, boolean powerRequest) {
        public Start(Instance instance, String reason, boolean withdrawDrain) {
            this(instance, reason, withdrawDrain, false);
        }
    }

    /** Add instances because no stopped one is left to start. */
    public record Create(int count, String reason) {
    }

    /** Ask the agent to take a node out of service. */
    public record DrainRequest(Instance instance, String reason) {
    }

    /** Withdraw a drain request; the agent returns the node to service. */
    public record CancelDrain(String node, String reason) {
    }

    /** Stop an instance, for one of three reasons, each re-checked differently just before the stop. */
    public record Stop(Instance instance, String reason, Kind kind) {
        public enum Kind {
            /** The drain handshake is complete. */
            DRAINED,
            /** Its node never reported to the scheduler: counted as a failed boot. */
            BOOT_FAILURE,
            /** Slurm's power saving asked for it, and the node runs no job; the request is deleted once done. */
            POWER_SAVING
        }

        public boolean bootFailure() {
            return kind == Kind.BOOT_FAILURE;
        }
    }

    /** A power request that needs no action any more (done, or its node has no instance): delete it. */
    public record PowerDone(String node, String reason) {
    }

    /** A refusal or condition worth an event: why the pool did not do something. */
    public record Note(Kind kind, String message) {
        public enum Kind {
            INSTANCES_UNKNOWN,
            STALE,
            BACKOFF,
            UNSATISFIABLE,
            AT_MAX,
            NOTHING_TO_START,
            WAITING_FOR_JOBS,
            UNREPORTED_NODE
        }
    }

    public boolean isEmpty() {
        return starts.isEmpty() && create == null && drains.isEmpty() && cancels.isEmpty() && stops.isEmpty()
                && powerDone.isEmpty();
    }
}
