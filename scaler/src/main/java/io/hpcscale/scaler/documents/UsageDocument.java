package io.hpcscale.scaler.documents;

import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.CosmosIds;
import io.hpcscale.common.model.DocumentType;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * What one pool's instances cost on one UTC day, as the active scaler saw them cycle after cycle: the time they
 * were active (running or booting) and the part of it their nodes ran jobs. {@code hpcscale-scaler usage} adds these
 * up; they outlive the events, which the store keeps for days, not months.
 *
 * @param lastSampleAt when the scaler last added to this day, so that the next sample adds the time since
 * @param lastActive  instances active at that sample
 * @param lastBusy    of those, instances whose node ran a job
 */
public record UsageDocument(
        String poolName,
        LocalDate day,
        double instanceSeconds,
        double busySeconds,
        Instant lastSampleAt,
        int lastActive,
        int lastBusy) implements ClusterLoadDocument {

    /** Long enough for a year's reports, and a bound on what the store keeps. */
    public static final Duration KEPT_FOR = Duration.ofDays(400);

    public UsageDocument {
        Objects.requireNonNull(poolName, "poolName");
        Objects.requireNonNull(day, "day");
        Objects.requireNonNull(lastSampleAt, "lastSampleAt");
    }

    public static String idFor(String pool, LocalDate day) {
        return "usage-" + CosmosIds.encode(pool) + "-" + day;
    }

    public static LocalDate dayOf(Instant at) {
        return LocalDate.ofInstant(at, ZoneOffset.UTC);
    }

    @Override
    public String id() {
        return idFor(poolName, day);
    }

    @Override
    public DocumentType type() {
        return DocumentType.USAGE;
    }
}
