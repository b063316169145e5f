package io.hpcscale.scaler.report;

import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.scaler.documents.LastAction;
import io.hpcscale.scaler.run.PoolCensus;
import java.time.Instant;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One pool as {@code status} shows it.
 *
 * @param census        instances by what they do, queued jobs and demanded nodes; null when the pool could not be
 *                      planned
 * @param fixed         the pool keeps a fixed count of instances rather than following queued jobs
 * @param backoffUntil  the pool starts nothing before this, or null
 * @param lastAction    the scaler's most recent action on the pool, or null
 * @param agent         the freshest heartbeat of an agent serving the pool, or null if none has written one
 * @param problem       why the pool could not be listed or planned, or null
 * @param sealedScaleSets for a pool spread over several scale sets, those sealed (no growth is asked of them), each
 *                      with when and why, as the scaler recorded them; empty for others
 */
public record PoolStatus(String pool, PoolCensus census, boolean fixed, int min, int max, Instant backoffUntil,
        String backoffReason, LastAction lastAction, AgentDocument agent, String problem,
        SortedMap<String, String> sealedScaleSets) {

    public PoolStatus {
        sealedScaleSets = Collections.unmodifiableSortedMap(new TreeMap<>(sealedScaleSets));
    }
}
