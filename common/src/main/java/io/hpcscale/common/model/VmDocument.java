package io.hpcscale.common.model;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One scheduler node as the agent last read it.
 *
 * @param schedulerState   the scheduler's own state text, for people
 * @param offline          the scheduler will not place new jobs on it (PBS offline, Slurm drain)
 * @param offlineByHpcscale offline, and the mark carries hpcscale's marker
 * @param down             the scheduler cannot reach the node: what runs there is unknown
 * @param exclusive        a job holds the node exclusively: no other job may be placed on it, whatever CPUs it
 *                         shows unused
 * @param lastBusyAt       for a busy node, when it became busy; for a free node, when it was last seen busy
 * @param seenAt           when the agent read the state this document holds
 * @param drainRequestedAt the {@code RequestedAt} of the drain request the agent had read before it read this
 *                         state, or null; the scaler stops a drained node only when this matches its request
 */
public record VmDocument(
        String id,
        String poolName,
        String name,
        NodeJobStatus jobStatus,
        String schedulerState,
        boolean offline,
        boolean offlineByHpcscale,
        boolean down,
        boolean exclusive,
        int cpusTotal,
        int cpusUsed,
        long memoryMb,
        long memoryMbUsed,
        int gpus,
        int gpusUsed,
        List<String> jobIds,
        Instant lastBusyAt,
        Instant seenAt,
        Instant drainRequestedAt,
        String agent) implements ClusterLoadDocument {

    public VmDocument {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(poolName, "poolName");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(jobStatus, "jobStatus");
        jobIds = List.copyOf(jobIds);
    }

    @Override
    public DocumentType type() {
        return DocumentType.VMS;
    }

    /** No job runs on the node, by either the node's state or its job list. */
    public boolean idle() {
        return jobStatus == NodeJobStatus.Free && jobIds.isEmpty();
    }

    /**
     * Out of service by someone else's mark (an administrator's): hpcscale never starts, stops, drains or returns
     * such a node.
     */
    public boolean heldByAdministrator() {
        return offline && !offlineByHpcscale;
    }

    public VmDocument withSeenAt(Instant newSeenAt) {
        return new VmDocument(id, poolName, name, jobStatus, schedulerState, offline, offlineByHpcscale, down,
                exclusive, cpusTotal, cpusUsed, memoryMb, memoryMbUsed, gpus, gpusUsed, jobIds, lastBusyAt, newSeenAt,
                drainRequestedAt, agent);
    }

    /**
     * This document with the node in service (as the agent has just read it) echoing the drain request of
     * {@code requestedAt}: the record an agent writes just before taking the node offline for that request, so that
     * the mark to come can be told hpcscale's should the scheduler lose it. Its other fields are as last written; the
     * cycle's own write replaces it moments later, and no stop that waits for the drain handshake is allowed on it
     * (it shows no offline by hpcscale).
     */
    public VmDocument inServiceEchoing(Instant requestedAt) {
        return new VmDocument(id, poolName, name, jobStatus, schedulerState, false, false, down, exclusive, cpusTotal,
                cpusUsed, memoryMb, memoryMbUsed, gpus, gpusUsed, jobIds, lastBusyAt, seenAt, requestedAt, agent);
    }

    /** Same node state, whenever it was seen. */
    public boolean sameStateAs(VmDocument other) {
        return other != null && withSeenAt(null).equals(other.withSeenAt(null));
    }
}
