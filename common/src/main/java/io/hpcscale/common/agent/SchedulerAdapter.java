package io.hpcscale.common.agent;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a scheduler must offer hpcscale. One small class per scheduler implements it; everything else about the agent
 * (pool mapping, diffing, writing, drains, heartbeat, loop, configuration) is shared.
 */
public interface SchedulerAdapter {

    /** Short name of the scheduler, used in the heartbeat id: {@code pbs}, {@code slurm}. */
    String scheduler();

    /**
     * Reads all jobs and nodes. A job or node that cannot be understood is left out and listed as unreadable; the
     * read as a whole fails only when the output cannot be trusted at all.
     *
     * @throws SchedulerReadException the command failed, hung, or printed something that cannot be read
     */
    SchedulerSnapshot read() throws SchedulerReadException, InterruptedException;

    /**
     * A cheap reading of what would make a full read worth doing before the next one is due: a new job queued, a
     * queued job gone. Two calls that return different values mean "read in full now". Empty when the scheduler
     * offers nothing cheap, and the agent then waits for its interval.
     *
     * @throws SchedulerReadException when the cheap command fails; the agent then simply waits for its full read
     */
    default Optional<String> quickSignature() throws SchedulerReadException, InterruptedException {
        return Optional.empty();
    }

    /**
     * The queues (PBS) or partitions (Slurm) the scheduler has, to warn of a pool that names one it does not;
     * empty when this scheduler cannot list them.
     */
    default Optional<Set<String>> queueNames() throws SchedulerReadException, InterruptedException {
        return Optional.empty();
    }

    /**
     * Asks the scheduler, in a way that changes nothing, whether the agent may take nodes out of service: the
     * operator right an administrator must grant once. Empty when this scheduler offers no harmless way to ask.
     */
    default Optional<DrainRight> probeDrainRight() throws InterruptedException {
        return Optional.empty();
    }

    /**
     * Stops the scheduler from placing new jobs on the node. The adapter marks the node with
     * {@link OfflineMarker#comment} so that hpcscale recognises its own mark later.
     */
    void offline(String node, String reason) throws SchedulerCommandException, InterruptedException;

    /** Returns a node that hpcscale took offline to service. */
    void bringBack(String node) throws SchedulerCommandException, InterruptedException;

    /**
     * Puts a running job back in its queue, because the platform is about to take its node (a Spot eviction, a
     * deletion): the scheduler would otherwise find out only when the node stops answering, minutes later, and
     * requeue it then if at all. False where the scheduler has nothing to requeue (Kubernetes: the job's controller
     * makes a new pod by itself).
     *
     * Every adapter says what it does, wrappers included: a default would let a wrapper drop requeues unnoticed.
     *
     * @throws SchedulerCommandException the scheduler refused (a job that must not be rerun, no operator right)
     */
    boolean requeue(String jobId) throws SchedulerCommandException, InterruptedException;

    /**
     * Shows the users of a queued job why it gets no node, where they look for it (Slurm's {@code AdminComment},
     * the PBS job comment, an Event on the Kubernetes object); a null reason takes back what hpcscale showed, where
     * the scheduler keeps it.
     *
     * @throws SchedulerCommandException the scheduler refused (no operator right, the job just ended)
     */
    void showWaitReason(String jobId, String reason) throws SchedulerCommandException, InterruptedException;

    /**
     * How long a reason shown stays before the scheduler replaces or forgets it (the PBS scheduler rewrites the
     * comment of every job it cannot run at each of its cycles; Kubernetes drops Events after an hour), so that the
     * agent shows it again then; null when it stays until hpcscale changes it.
     */
    Duration waitReasonLasts();

    /**
     * What the field {@link #showWaitReason} writes holds on each job of the last read that has text there, where
     * the read shows it (Slurm's AdminComment); empty where it does not. The agent leaves alone a job whose field holds
     * someone else's text, and after a restart knows which jobs show a reason it wrote.
     */
    default Map<String, String> waitReasonFields() {
        return Map.of();
    }
}
