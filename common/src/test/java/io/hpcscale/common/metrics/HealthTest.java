package io.hpcscale.common.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HealthTest {
    private final Health health = new Health(3);

    @Test
    void aPartThatCannotDoItsJobMakesAServiceWhoseCyclesSucceedUnhealthyUntilTheNextCycleFindsItWell() {
        health.cycleSucceeded();
        health.degraded(Map.of("pool img", "protected since 2026-11-27T08:00:00Z after 5 failed boots in a row"));
        assertEquals(Optional.of("pool img protected since 2026-11-27T08:00:00Z after 5 failed boots in a row"),
                health.problem());
        health.degraded(Map.of());
        assertEquals(Optional.empty(), health.problem());
    }

    @Test
    void failedCyclesAndALostLeaseComeFirst() {
        health.degraded(Map.of("pool img", "protected"));
        health.cycleFailed("store down");
        health.cycleFailed("store down");
        health.cycleFailed("store down");
        assertEquals(Optional.of("3 cycles in a row failed; the last: store down"), health.problem());
        health.leaseLost("now held by manager2");
        assertEquals(Optional.of("the lease was lost while this scaler was active: now held by manager2"),
                health.problem());
    }
}
