package io.hpcscale.scaler.cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.PoolSettings;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.FakeCommandRunner;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.scaler.Programs;
import io.hpcscale.scaler.fixed.StoredTarget;
import io.hpcscale.scaler.fixed.TargetSource;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The core knows no cloud by name: a pool's provider is its own command or simulated one, or a module's. */
class CloudProvidersTest {
    private final Clock clock = Clock.systemUTC();
    private final AtomicInteger opened = new AtomicInteger();
    private final SimulatedCloud simulated = new SimulatedCloud(clock);

    /** A cloud module whose pools are simulated scale sets and whose fixed pools keep their count in the cloud. */
    private final class Sky implements CloudModule {
        @Override
        public String name() {
            return "sky";
        }

        @Override
        public Cloud open(Settings settings, CallGate gate) {
            opened.incrementAndGet();
            return new Cloud() {
                @Override
                public CloudProvider forPool(PoolSettings pool) {
                    simulated.addScaleSet(pool.name(), 4, pool.name() + "-vm", java.time.Duration.ZERO);
                    return simulated.provider(pool.name());
                }

                @Override
                public Optional<TargetSource> targetForPool(PoolSettings pool) {
                    return Optional.of(new TargetSource() {
                        @Override
                        public OptionalInt read() {
                            return OptionalInt.of(3);
                        }

                        @Override
                        public void write(int count, String setBy) {
                        }

                        @Override
                        public String describe() {
                            return "the sky's count";
                        }
                    });
                }

                @Override
                public PoolFindings check(PoolConfig pool, PoolSettings settings) {
                    return new PoolFindings(List.of(), true);
                }

                @Override
                public String nodeNaming(PoolSettings pool) {
                    return "how the sky names nodes";
                }
            };
        }
    }

    private CloudProviders providers(Map<String, String> values) {
        Settings settings = new ConfigLoader(ConfigCatalog.installed()).fromMap(values, Programs.SCALER);
        return new CloudProviders(settings, new FakeCommandRunner(), simulated, CallGate.ALWAYS_OPEN,
                List.of(new Sky()));
    }

    @Test
    void aProviderNoModuleBringsIsRefusedNamingThoseThereAre() {
        CloudProviders providers = providers(Map.of("pool.hb.provider", "azure", "pool.hb.max", "4"));
        ConfigException e = assertThrows(ConfigException.class, () -> providers.forPool("hb"));
        assertEquals("pool.hb.provider=azure is not a provider here: the providers are sky, command, simulated (a "
                + "cloud comes with its module's jar, e.g. azure with the hpcscale-scaler package)", e.getMessage());
    }

    @Test
    void aModulesCloudIsOpenedOnceForAllItsPools() {
        CloudProviders providers = providers(Map.of("pool.a.provider", "sky", "pool.a.max", "4",
                "pool.b.provider", "sky", "pool.b.max", "4", "pool.c.provider", "simulated", "pool.c.max", "2",
                "pool.c.cpus", "4", "pool.c.memoryMb", "1024"));
        providers.forPool("a");
        providers.forPool("b");
        providers.forPool("c");
        assertEquals(1, opened.get());
        assertSame(providers.cloudOf("a").orElseThrow(), providers.cloudOf("b").orElseThrow());
        assertTrue(providers.cloudOf("c").isEmpty());
    }

    @Test
    void aFixedPoolsCountLivesWhereItsCloudKeepsItElseInTheStore() {
        CloudProviders providers = providers(Map.of("pool.a.provider", "sky", "pool.a.max", "4",
                "pool.a.target", "fixed", "pool.c.provider", "simulated", "pool.c.max", "2", "pool.c.cpus", "4",
                "pool.c.memoryMb", "1024", "pool.c.target", "fixed"));
        DocumentStore store = new DocumentStore(new InMemoryClusterLoadStore(clock));
        assertEquals("the sky's count", providers.targetForPool("a", store, clock).describe());
        assertTrue(providers.targetForPool("c", store, clock) instanceof StoredTarget);
        assertTrue(providers.targetInCloud("c").isEmpty());
    }
}
