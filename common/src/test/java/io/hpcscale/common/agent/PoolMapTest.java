package io.hpcscale.common.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.EveryModule;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PoolMapTest {
    private static PoolMap of(Map<String, String> settings) {
        return PoolMap.fromSettings(EveryModule.loader().fromMap(settings, EveryModule.TEST_PROGRAM),
                "queue");
    }

    @Test
    void aPoolServesTheQueueOfItsOwnNameByDefault() {
        PoolMap pools = of(Map.of("pool.pinta00.nodePattern", "pinta.*", "pool.gpu.queue", "gpuq"));
        assertEquals(Optional.of("pinta00"), pools.poolForQueues(List.of("pinta00")));
        assertEquals(Optional.of("gpu"), pools.poolForQueues(List.of("gpuq")));
        assertEquals(Optional.empty(), pools.poolForQueues(List.of("gpu")));
        assertEquals(List.of("gpu", "pinta00"), pools.pools());
    }

    @Test
    void aNodeBelongsToItsQueueFirstAndToANamePatternOtherwise() {
        PoolMap pools = of(Map.of("pool.pinta00.nodePattern", "pinta.*", "pool.gpu.queue", "gpuq"));
        assertEquals(Optional.of("gpu"), pools.poolForNode("pinta01", List.of("gpuq")));
        assertEquals(Optional.of("pinta00"), pools.poolForNode("pinta01", List.of()));
        assertEquals(Optional.empty(), pools.poolForNode("other", List.of("workq")));
    }

    @Test
    void servesThePoolsOfItsQueuesAndNodePatternsOnly() {
        PoolMap pools = of(Map.of("pool.pinta00.nodePattern", "pinta.*", "pool.gpu.queue", "gpuq"));
        assertTrue(pools.serves("gpu") && pools.serves("pinta00"));
        assertFalse(pools.serves("gpuq"), "a queue is not a pool");
        assertFalse(pools.serves("other"), "another agent's pool");
    }

    @Test
    void refusesTwoPoolsForOneQueue() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> of(Map.of("pool.a.queue", "work", "pool.b.queue", "work")));
        assertTrue(e.getMessage().contains("pool.b.queue names queue 'work', which pool a already serves"),
                e.getMessage());
    }

    @Test
    void aFallbackPoolIsServedButTakesNoQueueOrNodeOfItsOwn() {
        PoolMap pools = of(Map.of("pool.hb.queue", "hpc", "pool.hb.fallbacks", "hc, hd", "pool.hc.max", "4",
                "pool.hd.max", "4"));
        assertEquals(List.of("hb", "hc", "hd"), pools.pools(), "named in the heartbeat, their drains carried out");
        assertEquals(Optional.of("hb"), pools.poolForNode("hc-node1", List.of("hpc")), "reported with the queue");
        assertEquals(Optional.empty(), pools.poolForQueues(List.of("hc")), "not the queue of its own name");
    }

    @Test
    void refusesAFallbackThatClaimsAQueueOrNodesOfItsOwn() {
        ConfigException e = assertThrows(ConfigException.class, () -> of(Map.of("pool.hb.queue", "hpc",
                "pool.hb.fallbacks", "hc", "pool.hc.queue", "other", "pool.hc.nodePattern", "hc.*")));
        assertTrue(e.getMessage().contains("pool.hc.queue is set, but pool hc is a fallback of pool hb"),
                e.getMessage());
        assertTrue(e.getMessage().contains("pool.hc.nodePattern is set"), e.getMessage());
    }

    @Test
    void refusesFallbacksThatAreUnknownSharedOrNested() {
        ConfigException e = assertThrows(ConfigException.class, () -> of(Map.of("pool.a.fallbacks", "b, ghost",
                "pool.c.fallbacks", "b", "pool.b.fallbacks", "d", "pool.d.max", "1")));
        assertTrue(e.getMessage().contains("pool.a.fallbacks names pool 'ghost', which is not configured"),
                e.getMessage());
        assertTrue(e.getMessage().contains("pool.c.fallbacks names pool 'b', which is already a fallback of pool a"),
                e.getMessage());
        assertTrue(e.getMessage().contains("pool.b.fallbacks is set, but pool b is itself a fallback of pool a"),
                e.getMessage());
    }

    @Test
    void refusesAConfigurationWithoutPools() {
        ConfigException e = assertThrows(ConfigException.class, () -> of(Map.of("agent.interval", "60s")));
        assertTrue(e.getMessage().contains("no pools are configured"), e.getMessage());
    }
}
