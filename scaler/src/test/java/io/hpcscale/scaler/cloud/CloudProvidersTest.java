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
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.Programs;
import io.hpcscale.scaler.fixed.StoredTarget;
import io.hpcscale.scaler.fixed.TargetSource;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.StopAction;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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

    @Test
    void theCommandProviderRefusesToHibernateForItHasOneStopCommand() {
        CloudProviders providers = providers(Map.of("pool.r.provider", "command", "pool.r.max", "4",
                "pool.r.cpus", "4", "pool.r.memoryMb", "1024", "pool.r.command.list", "list",
                "pool.r.command.start", "start {instance}", "pool.r.command.stop", "stop {instance}",
                "pool.r.stopAction", "hibernate"));
        ConfigException e = assertThrows(ConfigException.class, () -> providers.forPool("r"));
        assertTrue(e.getMessage().contains("pool.r.stopAction = hibernate cannot be done by the command provider")
                && e.getMessage().contains("make pool.r.command.stop do what stopping should do"), e.getMessage());
    }

    @Test
    void aSimulatedInstanceStoppedByHibernationResumesInTheResumeDelayAndAnyOtherBoots() throws Exception {
        SettableClock at = new SettableClock(Instant.parse("2026-11-27T08:00:00Z"));
        SimulatedCloud cloud = new SimulatedCloud(at);
        Settings settings = new ConfigLoader(ConfigCatalog.installed()).fromMap(Map.of("pool.s.provider",
                "simulated", "pool.s.max", "2", "pool.s.cpus", "4", "pool.s.memoryMb", "1024",
                "pool.s.simulated.bootDelay", "4m", "pool.s.simulated.resumeDelay", "40s"), Programs.SCALER);
        CloudProvider provider = new CloudProviders(settings, new FakeCommandRunner(), cloud, CallGate.ALWAYS_OPEN,
                List.of()).forPool("s");
        List<Instance> both = provider.list();
        provider.start(both);
        at.advance(Duration.ofMinutes(4));
        provider.stop(both.subList(0, 1), StopAction.HIBERNATE);
        provider.stop(both.subList(1, 2), StopAction.DEALLOCATE);

        provider.start(both);
        at.advance(Duration.ofSeconds(40));

        List<Instance> now = provider.list();
        assertEquals(PowerState.RUNNING, now.get(0).state(), "resumed from hibernation");
        assertEquals(PowerState.STARTING, now.get(1).state(), "deallocated: a whole boot");
        provider.stop(both.subList(0, 1), StopAction.DEALLOCATE);
        provider.start(both.subList(0, 1));
        at.advance(Duration.ofSeconds(40));
        assertEquals(PowerState.STARTING, provider.list().get(0).state(), "deallocated after its resume: a boot");
    }
}
