package io.hpcscale.scaler.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.ForwardingClusterLoadStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.common.time.Monotonic;
import io.hpcscale.common.time.SettableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two scalers on hosts whose wall clocks disagree, timed in one true time: the lease must never let both act, and a
 * standby must take over within two lease periods of the holder's death. Each host's monotonic clock has its own
 * origin, as on real machines: only intervals on one host are ever compared.
 */
class ScalerLeaseTest {
    private static final Duration TTL = Duration.ofMinutes(3);
    private static final Duration INTERVAL = Duration.ofSeconds(60);
    private static final Duration STEP = Duration.ofSeconds(5);

    private final SettableClock trueTime = new SettableClock(Instant.parse("2026-11-26T08:00:00Z"));
    private final InMemoryClusterLoadStore shared = new InMemoryClusterLoadStore(trueTime);

    /** A's store: its renewals fail while {@code failing} is set (a throttled or unreachable store, for A only). */
    private final class FlakyStore extends ForwardingClusterLoadStore {
        boolean failing;

        FlakyStore() {
            super(shared);
        }

        @Override
        public String replaceIfMatch(ObjectNode document, String expectedEtag) {
            if (failing) {
                throw new StoreException("throttled (429) after 3 attempts");
            }
            return super.replaceIfMatch(document, expectedEtag);
        }
    }

    private ScalerLease lease(ForwardingClusterLoadStore store, String host, long monotonicOrigin) {
        Monotonic elapsed = Monotonic.following(trueTime);
        return new ScalerLease(new DocumentStore(store), TTL, new LeaseHolder(host, 100, "boot-" + host), pid -> true,
                () -> elapsed.nanos() + monotonicOrigin);
    }

    @ParameterizedTest(name = "the standby''s clock {0} s off")
    @ValueSource(ints = {60, -60, 600, -600})
    void neverBothActWhateverTheClocksSayAndTheStandbyTakesOverWithinTwoLeasePeriods(int skewSeconds) {
        FlakyStore storeA = new FlakyStore();
        ScalerLease[] scalers = {lease(storeA, "manager-a", 123_000_000_000L),
            lease(new FlakyStore(), "manager-b", -77_000_000_000L)};
        Clock[] clocks = {trueTime, Clock.offset(trueTime, Duration.ofSeconds(skewSeconds))};
        long[] phase = {0, 30};
        Instant[] lastActive = new Instant[2];
        Instant start = trueTime.instant();
        int dead = -1;
        Instant tookOver = null;
        int takeovers = 0;
        int holder = -1;
        for (Instant t = start; t.isBefore(start.plus(Duration.ofMinutes(45))); t = t.plus(STEP)) {
            trueTime.set(t);
            long sinceStart = Duration.between(start, t).toSeconds();
            // A's store refuses its renewals for four minutes, longer than the lease, while A stays alive.
            storeA.failing = sinceStart >= 600 && sinceStart < 840;
            if (sinceStart == 1800) {
                dead = holder; // the holder of the moment dies
            }
            for (int i = 0; i < 2; i++) {
                if (i == dead || sinceStart % INTERVAL.toSeconds() != phase[i]) {
                    continue;
                }
                if (scalers[i].acquireOrRenew(clocks[i].instant()).state() == LeaseStatus.State.ACTIVE) {
                    lastActive[i] = t;
                    if (holder != i) {
                        takeovers++;
                        holder = i;
                        if (dead >= 0) {
                            tookOver = t;
                        }
                    }
                }
            }
            assertFalse(scalers[0].holds() && scalers[1].holds(),
                    "both scalers may act at " + t + " (skew " + skewSeconds + " s)");
        }
        assertTrue(takeovers >= 2, "the standby took over while the holder could not renew: " + takeovers);
        assertTrue(tookOver != null, "the standby never took over after the holder died");
        Duration failover = Duration.between(lastActive[dead], tookOver);
        assertTrue(failover.compareTo(TTL.multipliedBy(2)) <= 0, "failover took " + failover);
    }

    @Test
    void aHolderWhoseRenewalsFailStopsActingBeforeAStandbyMayTakeOver() {
        FlakyStore storeA = new FlakyStore();
        ScalerLease a = lease(storeA, "manager-a", 0);
        ScalerLease b = lease(new FlakyStore(), "manager-b", 5_000_000_000L);
        a.acquireOrRenew(trueTime.instant());
        b.acquireOrRenew(Clock.offset(trueTime, Duration.ofSeconds(60)).instant());
        storeA.failing = true;
        Instant tookOver = null;
        Instant aStopped = null;
        for (int s = 0; s <= 400 && tookOver == null; s += 5) {
            trueTime.advance(STEP);
            if (s % 60 == 0) {
                a.acquireOrRenew(trueTime.instant());
                if (b.acquireOrRenew(Clock.offset(trueTime, Duration.ofSeconds(60)).instant()).state()
                        == LeaseStatus.State.ACTIVE) {
                    tookOver = trueTime.instant();
                }
            }
            if (aStopped == null && !a.holds()) {
                aStopped = trueTime.instant();
            }
        }
        assertTrue(aStopped != null && tookOver != null && aStopped.isBefore(tookOver),
                "A stopped at " + aStopped + ", B took over at " + tookOver);
    }

    @Test
    void aStandbyWaitsForTheHoldersLeaseWhenItIsLongerThanItsOwn() {
        Monotonic elapsed = Monotonic.following(trueTime);
        ScalerLease holder = new ScalerLease(new DocumentStore(shared), TTL.multipliedBy(2),
                new LeaseHolder("manager-a", 1, "boot-a"), pid -> true, elapsed);
        ScalerLease standby = lease(new FlakyStore(), "manager-b", 0);
        holder.acquireOrRenew(trueTime.instant());
        standby.acquireOrRenew(trueTime.instant());
        trueTime.advance(TTL.plusSeconds(30));
        assertEquals(LeaseStatus.State.STANDBY, standby.acquireOrRenew(trueTime.instant()).state(),
                "past its own lease, not the holder's");
        assertTrue(holder.holds());
        trueTime.advance(TTL);
        assertEquals(LeaseStatus.State.ACTIVE, standby.acquireOrRenew(trueTime.instant()).state());
        assertFalse(holder.holds(), "the holder stopped acting before");
    }
}
