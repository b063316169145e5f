package io.hpcscale.scaler.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.VmShape;
import java.time.Duration;
import java.util.List;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The defaults: 3 failed boots, 3 eviction rounds within 30 minutes, 10 minutes of backoff. */
class PoolBackoffTest {
    private static final Instant NOW = Instant.parse("2026-11-26T09:00:00Z");
    private final PoolConfig pool = PoolConfigs.withDefaults("p", new VmShape(4, 8000, 0), 10);
    private final ScalerStateDocument fresh = ScalerStateDocument.empty("p");

    @Test
    void aRefusalEntersBackoffOnceAndDoesNotExtendIt() {
        ScalerStateDocument refused = PoolBackoff.afterRefusal(fresh, pool, NOW, "quota error: 0 cores left");
        assertEquals(NOW.plus(Duration.ofMinutes(10)), refused.backoffUntil());
        assertEquals("quota error: 0 cores left", refused.backoffReason());
        assertSame(refused, PoolBackoff.afterRefusal(refused, pool, NOW.plusSeconds(60), "capacity error"),
                "already in backoff: unchanged");
    }

    @Test
    void theThirdFailedBootInARowEntersBackoffAndTheCountBeginsAgain() {
        ScalerStateDocument two = PoolBackoff.afterFailedBoot(PoolBackoff.afterFailedBoot(fresh, pool, NOW, "a"), pool,
                NOW, "b");
        assertEquals(2, two.consecutiveBootFailures());
        assertNull(two.backoffUntil());
        ScalerStateDocument three = PoolBackoff.afterFailedBoot(two, pool, NOW, "c");
        assertEquals(NOW.plus(Duration.ofMinutes(10)), three.backoffUntil());
        assertEquals("3 boots in a row failed", three.backoffReason());
        assertEquals(0, three.consecutiveBootFailures());
        ScalerStateDocument four = PoolBackoff.afterFailedBoot(three, pool, NOW.plusSeconds(300), "d");
        assertEquals(1, four.consecutiveBootFailures());
        assertEquals(three.backoffUntil(), four.backoffUntil(), "one more failure does not extend the backoff");
        assertEquals(4, four.bootHealth().failedInARow(), "the backoff did not reset the boots' health");
        assertNull(four.bootHealth().protectedSince(), "four of the default five");
        ScalerStateDocument five = PoolBackoff.afterFailedBoot(four, pool, NOW.plusSeconds(400), "e");
        assertEquals(NOW.plusSeconds(400), five.bootHealth().protectedSince());
        assertEquals(List.of(NOW + ": a", NOW + ": b", NOW + ": c", NOW.plusSeconds(300) + ": d",
                NOW.plusSeconds(400) + ": e"), five.bootHealth().recentFailures());
    }

    @Test
    void evictionsInThreeCyclesWithinTheWindowEnterBackoffOneStormDoesNot() {
        ScalerStateDocument once = PoolBackoff.afterEvictions(fresh, pool, NOW);
        ScalerStateDocument twice = PoolBackoff.afterEvictions(once, pool, NOW.plusSeconds(60));
        assertFalse(twice.inBackoff(NOW.plusSeconds(60)), "two cycles of evictions are replaced");
        Instant third = NOW.plusSeconds(120);
        ScalerStateDocument thrice = PoolBackoff.afterEvictions(twice, pool, third);
        assertTrue(thrice.inBackoff(third));
        assertEquals("Spot evictions in 3 cycles within 30m", thrice.backoffReason());

        ScalerStateDocument spread = fresh;
        for (int cycle = 0; cycle < 3; cycle++) {
            spread = PoolBackoff.afterEvictions(spread, pool, NOW.plus(Duration.ofMinutes(20L * cycle)));
        }
        assertFalse(spread.inBackoff(NOW.plus(Duration.ofMinutes(40))), "three cycles, but not within 30 minutes");
    }
}
