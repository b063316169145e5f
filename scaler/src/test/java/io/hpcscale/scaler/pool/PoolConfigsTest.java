package io.hpcscale.scaler.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolConfigsTest {
    private static final VmShape SHAPE = new VmShape(16, 65536, 0);

    @Test
    void aPoolFollowsItsSchedulersPowerRequestsUnderTheNewNameOrTheFormerOne() {
        assertFalse(PoolConfigs.withDefaults("cloud", SHAPE, 4).followPowerRequests());
        assertTrue(PoolConfigs.withDefaults("cloud", SHAPE, 4, Map.of("followPowerRequests", "true"))
                .followPowerRequests());
        assertTrue(PoolConfigs.withDefaults("cloud", SHAPE, 4, Map.of("slurmPowerSaving", "true"))
                .followPowerRequests(), "a file written for an earlier release keeps working");
        assertTrue(PoolConfigs.withDefaults("cloud", SHAPE, 4, Map.of("slurmPowerSaving", "true",
                "followPowerRequests", "true")).followPowerRequests());
    }

    @Test
    void aPoolThatFollowsSlurmsPowerRequestsCannotHibernateForSlurmExpectsABoot() {
        ConfigException e = assertThrows(ConfigException.class, () -> PoolConfigs.withDefaults("cloud", SHAPE, 4,
                Map.of("followPowerRequests", "true", "stopAction", "hibernate")));
        assertEquals(List.of("pool.cloud.stopAction = hibernate cannot be combined with "
                + "pool.cloud.followPowerRequests = true: Slurm powers nodes up for jobs at once and expects each to "
                + "boot and register; use stopAction = deallocate"), e.problems());
        assertEquals(StopAction.HIBERNATE, PoolConfigs.withDefaults("cloud", SHAPE, 4, Map.of("stopAction",
                "hibernate")).stopAction());
    }

    @Test
    void theTwoNamesDisagreeingAreRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> PoolConfigs.withDefaults("cloud", SHAPE, 4,
                Map.of("slurmPowerSaving", "true", "followPowerRequests", "false")));
        assertEquals(List.of("pool.cloud.slurmPowerSaving is the former name of pool.cloud.followPowerRequests and "
                + "the two disagree: keep only the second"), e.problems());
    }
}
