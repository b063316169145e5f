package io.hpcscale.scaler.run;

import io.hpcscale.common.codec.DocumentFormatException;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.EtagConflictException;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.common.store.StoredDocument;
import io.hpcscale.common.time.Monotonic;
import io.hpcscale.scaler.documents.LeaseDocument;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease that lets exactly one scaler act. It is created, renewed and taken over with ETag-conditional writes: of
 * two scalers racing for it, one write fails.
 *
 * <p>No wall clock decides who may act: the hosts' clocks may disagree by minutes (a standby 60 s ahead once took a
 * lease whose holder was alive and renewing). Each side times the lease on its own monotonic clock. The holder counts
 * its lease from just before it sent the renewal, and stops acting a margin before that time plus the lease's
 * length. A standby counts from the moment it first saw the holder's current ETag, which is after the holder sent
 * that renewal, and takes over only when the same ETag has stood unchanged for the lease's whole length. So the
 * holder has stopped before the standby may start, whatever either wall clock says. The {@code ExpiresAt} written in
 * the document is the holder's clock, for people reading {@code status}.
 */
public final class ScalerLease {
    private static final Logger log = LoggerFactory.getLogger(ScalerLease.class);
    /** The holder stops acting this long before its lease ends: for an action begun just before, and clock rates. */
    private static final Duration MAX_MARGIN = Duration.ofSeconds(30);

    private final DocumentStore store;
    private final Duration ttl;
    private final LeaseHolder self;
    private final LongPredicate processAlive;
    private final Monotonic monotonic;
    /** Monotonic nanoseconds until which this scaler may act; null when it does not hold the lease. */
    private volatile Long validUntil;
    /** The other holder's ETag this standby watches, and when (monotonic) it first saw it. */
    private String watchedEtag;
    private long watchedSince;
    private String reportedHolder;

    /**
     * @param processAlive whether a process of this host (same boot) still runs: a holder on this host whose process
     *                     is gone (this scaler's previous run, killed) is taken over at once
     * @param monotonic    this host's elapsed time, which times the lease
     */
    public ScalerLease(DocumentStore store, Duration ttl, LeaseHolder self, LongPredicate processAlive,
            Monotonic monotonic) {
        this.store = store;
        this.ttl = ttl;
        this.self = self;
        this.processAlive = processAlive;
        this.monotonic = monotonic;
    }

    public static ScalerLease forThisProcess(DocumentStore store, Duration ttl) {
        return new ScalerLease(store, ttl, LeaseHolder.thisProcess(),
                pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), Monotonic.system());
    }

    public LeaseHolder self() {
        return self;
    }

    /** Whether this scaler holds a lease still valid now by its last successful renewal, timed on this host. */
    public boolean holds() {
        Long until = validUntil;
        return until != null && monotonic.nanos() - until < 0;
    }

    /** Takes the lease if it is free, expired or held by a process that is gone; renews it if held by this scaler. */
    public LeaseStatus acquireOrRenew(Instant now) {
        // Counted from before anything is sent: the standby's count starts after it sees this write's result.
        long sentAt = monotonic.nanos();
        try {
            Optional<StoredDocument> stored = store.store().read(LeaseDocument.KEY);
            if (stored.isEmpty()) {
                store.store().create(store.codec().encode(mine(now)));
                return becameActive(now, sentAt, "the lease was free");
            }
            LeaseDocument lease = store.codec().decode(stored.get().json(), LeaseDocument.class);
            String etag = stored.get().etag();
            if (lease.holder().equals(self.name())) {
                store.store().replaceIfMatch(store.codec().encode(mine(now)), etag);
                validUntil = sentAt + ttl.minus(margin()).toNanos();
                return new LeaseStatus(LeaseStatus.State.ACTIVE, self.name(), now.plus(ttl), null);
            }
            String takeover = takeoverReason(lease, etag);
            if (takeover != null) {
                store.store().replaceIfMatch(store.codec().encode(mine(now)), etag);
                return becameActive(now, sentAt, takeover);
            }
            return standby(lease.holder(), lease.expiresAt());
        } catch (EtagConflictException e) {
            validUntil = null;
            return standby(null, null);
        } catch (DocumentFormatException e) {
            return unknown("the lease document " + LeaseDocument.KEY + " cannot be read (" + e.getMessage()
                    + "); delete it with the store's tools to let a scaler take it");
        } catch (StoreException e) {
            return unknown(e.getMessage());
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

    private String takeoverReason(LeaseDocument lease, String etag) {
        if (lease.released()) {
            return "the lease was released";
        }
        if (self.host().equals(lease.host()) && !self.bootId().isEmpty() && self.bootId().equals(lease.bootId())
                && !processAlive.test(lease.pid())) {
            return "its holder " + lease.holder() + ", on this host, no longer runs";
        }
        long seen = monotonic.nanos();
        if (!etag.equals(watchedEtag)) {
            watchedEtag = etag;
            watchedSince = seen;
            return null;
        }
        Duration unchanged = Duration.ofNanos(seen - watchedSince);
        Duration length = holdersLength(lease);
        if (unchanged.compareTo(length) >= 0) {
            return "the lease of " + lease.holder() + " was not renewed for " + unchanged.toSeconds() + " s, timed on "
                    + "this host (lease " + length.toSeconds() + " s)";
        }
        return null;
    }

    /**
     * How long the holder counts its lease: its own {@code scaler.leaseTtl} may be longer than this scaler's (another
     * configuration, another interval). Both ends of it were written by the holder's clock, so their difference is a
     * length, whatever that clock says the time is.
     */
    private Duration holdersLength(LeaseDocument lease) {
        if (lease.renewedAt() == null) {
            return ttl;
        }
        Duration theirs = Duration.between(lease.renewedAt(), lease.expiresAt());
        return theirs.compareTo(ttl) > 0 ? theirs : ttl;
    }

    private LeaseDocument mine(Instant now) {
        return new LeaseDocument(self.name(), self.host(), self.pid(), self.bootId(), now, now.plus(ttl));
    }

    private LeaseStatus becameActive(Instant now, long sentAt, String why) {
        validUntil = sentAt + ttl.minus(margin()).toNanos();
        watchedEtag = null;
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

    private LeaseStatus unknown(String problem) {
        Long until = validUntil;
        log.warn("the scaler lease cannot be renewed: {}; {}", problem, holds()
                ? "acting only for " + Duration.ofNanos(until - monotonic.nanos()).toSeconds() + " s more"
                : "nothing is done until it can");
        return new LeaseStatus(LeaseStatus.State.UNKNOWN, null, null, problem);
    }

    private Duration margin() {
        Duration quarter = ttl.dividedBy(4);
        return quarter.compareTo(MAX_MARGIN) < 0 ? quarter : MAX_MARGIN;
    }
}
