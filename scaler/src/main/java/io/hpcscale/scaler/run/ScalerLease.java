package io.hpcscale.scaler.run;

import io.hpcscale.common.codec.DocumentFormatException;
import io.hpcscale.common.model.LeaseDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.EtagConflictException;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.common.store.StoredDocument;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease that lets exactly one scaler act. It is created, renewed and taken over with ETag-conditional writes: of
 * two scalers racing for it, one write fails. The holder renews it every cycle and stops acting a margin before its
 * lease could expire if it cannot renew, so that a standby taking over at the expiry (by its own clock, which may run
 * a little ahead) never overlaps with it.
 */
public final class ScalerLease {
    private static final Logger log = LoggerFactory.getLogger(ScalerLease.class);
    private static final Duration MAX_CLOCK_SKEW = Duration.ofSeconds(30);

    private final DocumentStore store;
    private final Duration ttl;
    private final LeaseHolder self;
    private final LongPredicate processAlive;
    private volatile Instant validUntil;
    private String reportedHolder;

    /**
     * @param processAlive whether a process of this host (same boot) still runs: a holder on this host whose process
     *                     is gone (this scaler's previous run, killed) is taken over at once
     */
    public ScalerLease(DocumentStore store, Duration ttl, LeaseHolder self, LongPredicate processAlive) {
        this.store = store;
        this.ttl = ttl;
        this.self = self;
        this.processAlive = processAlive;
    }

    public static ScalerLease forThisProcess(DocumentStore store, Duration ttl) {
        return new ScalerLease(store, ttl, LeaseHolder.thisProcess(),
                pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    public LeaseHolder self() {
        return self;
    }

    /** Whether this scaler holds a lease still valid at {@code now} by its last successful renewal. */
    public boolean holds(Instant now) {
        Instant until = validUntil;
        return until != null && now.isBefore(until);
    }

    /** Takes the lease if it is free, expired or held by a process that is gone; renews it if held by this scaler. */
    public LeaseStatus acquireOrRenew(Instant now) {
        try {
            Optional<StoredDocument> stored = store.store().read(LeaseDocument.KEY);
            if (stored.isEmpty()) {
                store.store().create(store.codec().encode(mine(now)));
                return becameActive(now, "the lease was free");
            }
            LeaseDocument lease = store.codec().decode(stored.get().json(), LeaseDocument.class);
            String etag = stored.get().etag();
            if (lease.holder().equals(self.name())) {
                store.store().replaceIfMatch(store.codec().encode(mine(now)), etag);
                validUntil = now.plus(ttl).minus(margin());
                return new LeaseStatus(LeaseStatus.State.ACTIVE, self.name(), now.plus(ttl), null);
            }
            String takeover = takeoverReason(lease, now);
            if (takeover != null) {
                store.store().replaceIfMatch(store.codec().encode(mine(now)), etag);
                return becameActive(now, takeover);
            }
            return standby(lease.holder(), lease.expiresAt());
        } catch (EtagConflictException e) {
            validUntil = null;
            return standby(null, null);
        } catch (DocumentFormatException e) {
            return unknown(now, "the lease document " + LeaseDocument.KEY + " cannot be read (" + e.getMessage()
                    + "); delete it with the store's tools to let a scaler take it");
        } catch (StoreException e) {
            return unknown(now, e.getMessage());
        }
    }

    /** Gives the lease up if this scaler still holds it, so a standby takes over at once rather than at its expiry. */
    public void release(Instant now) {
        validUntil = null;
        try {
            Optional<StoredDocument> stored = store.store().read(LeaseDocument.KEY);
            if (stored.isPresent() && store.codec().decode(stored.get().json(), LeaseDocument.class).holder()
                    .equals(self.name())) {
                store.store().replaceIfMatch(store.codec().encode(new LeaseDocument("", self.host(), self.pid(),
                        self.bootId(), now, now)), stored.get().etag());
                log.info("released the scaler lease");
            }
        } catch (StoreException | EtagConflictException | DocumentFormatException e) {
            log.warn("the scaler lease could not be released ({}); a standby takes over when it expires",
                    e.getMessage());
        }
    }

    private String takeoverReason(LeaseDocument lease, Instant now) {
        if (lease.released()) {
            return "the lease was released";
        }
        if (!now.isBefore(lease.expiresAt())) {
            return "the lease of " + lease.holder() + " expired at " + lease.expiresAt();
        }
        if (self.host().equals(lease.host()) && !self.bootId().isEmpty() && self.bootId().equals(lease.bootId())
                && !processAlive.test(lease.pid())) {
            return "its holder " + lease.holder() + ", on this host, no longer runs";
        }
        return null;
    }

    private LeaseDocument mine(Instant now) {
        return new LeaseDocument(self.name(), self.host(), self.pid(), self.bootId(), now, now.plus(ttl));
    }

    private LeaseStatus becameActive(Instant now, String why) {
        validUntil = now.plus(ttl).minus(margin());
        reportedHolder = self.name();
        log.info("this scaler ({}) now holds the lease until {}: {}", self.name(), now.plus(ttl), why);
        return new LeaseStatus(LeaseStatus.State.ACTIVE, self.name(), now.plus(ttl), null);
    }

    private LeaseStatus standby(String holder, Instant expiresAt) {
        boolean wasActive = validUntil != null;
        validUntil = null;
        if (holder != null && !holder.equals(reportedHolder)) {
            reportedHolder = holder;
            log.info("{}: scaler {} holds the lease until {}; this scaler ({}) plans and does nothing until it "
                    + "expires", wasActive ? "lost the lease" : "standby", holder, expiresAt, self.name());
        }
        return new LeaseStatus(LeaseStatus.State.STANDBY, holder, expiresAt, null);
    }

    private LeaseStatus unknown(Instant now, String problem) {
        log.warn("the scaler lease cannot be renewed: {}; {}", problem, holds(now)
                ? "acting only until " + validUntil : "nothing is done until it can");
        return new LeaseStatus(LeaseStatus.State.UNKNOWN, null, null, problem);
    }

    /** Stop acting this much before the lease expires, for the clocks of two hosts that disagree a little. */
    private Duration margin() {
        Duration quarter = ttl.dividedBy(4);
        return quarter.compareTo(MAX_CLOCK_SKEW) < 0 ? quarter : MAX_CLOCK_SKEW;
    }
}
