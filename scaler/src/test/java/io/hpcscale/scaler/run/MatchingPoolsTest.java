package io.hpcscale.scaler.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.scaler.Programs;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.PriceList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * One queue served by several VM sizes (a pool the agent maps and its fallbacks), on the simulated cloud: each job
 * goes to the cheapest pool whose node meets its constraints and whose shape fits it.
 */
class MatchingPoolsTest {
    private final ScalerFixture fixture = new ScalerFixture();
    private final DocumentStore documents = new DocumentStore(fixture.memory);

    /** large (64 CPUs) is the pool the agent maps; medium (16) and small (4) its fallbacks, listed dearest first. */
    private PoolConfig[] threeSizes(String... extra) {
        Map<String, String> values = new LinkedHashMap<>();
        pool(values, "large", 64, "3.07");
        values.put("pool.large.fallbacks", "medium, small");
        pool(values, "medium", 16, "0.77");
        pool(values, "small", 4, "0.19");
        for (int i = 0; i + 1 < extra.length; i += 2) {
            values.put(extra[i], extra[i + 1]);
        }
        return PoolConfigs.fromSettings(new ConfigLoader(ConfigCatalog.installed()).fromMap(values, Programs.SCALER))
                .values().toArray(PoolConfig[]::new);
    }

    private static void pool(Map<String, String> values, String name, int cpus, String price) {
        values.put("pool." + name + ".provider", "simulated");
        values.put("pool." + name + ".cpus", Integer.toString(cpus));
        values.put("pool." + name + ".memoryMb", Integer.toString(cpus * 4096));
        values.put("pool." + name + ".max", "10");
        values.put("pool." + name + ".vmSize", "Standard_F" + cpus + "s_v2");
        if (price != null) {
            values.put("pool." + name + ".pricePerHour", price);
        }
    }

    private void queued(String id, int cpus, String constraints) {
        documents.upsert(List.of(new JobDocument(id, "large", id, "workq", JobState.Queued, 1,
                List.of(new Chunk(1, cpus, 0, 0)), Placement.free, false, fixture.clock.instant(), "agent-h-pbs",
                null, constraints)));
    }

    private void cycle(Scaler scaler) throws InterruptedException {
        fixture.agentReported("large", "medium", "small");
        scaler.runOnce(fixture.clock.instant());
    }

    @Test
    void aQueueWithThreeSizesSendsEachJobToTheCheapestThatFits() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, threeSizes());
        queued("serial", 2, null);
        queued("threads", 12, null);
        queued("wide", 48, null);

        cycle(scaler);

        assertEquals(1, fixture.active("small"), "2 CPUs: the 0.19/h size");
        assertEquals(1, fixture.active("medium"), "12 CPUs: the 0.77/h size");
        assertEquals(1, fixture.active("large"), "48 CPUs: only the 3.07/h size fits");
        assertTrue(fixture.eventsOf(EventKind.UNSATISFIABLE).isEmpty());
    }

    @Test
    void withoutAPriceOnEveryPoolTheListedOrderHolds() throws Exception {
        Map<String, String> values = new LinkedHashMap<>();
        pool(values, "large", 64, null);
        values.put("pool.large.fallbacks", "medium, small");
        pool(values, "medium", 16, "0.77");
        pool(values, "small", 4, "0.19");
        Scaler scaler = fixture.scaler(fixture.memory, false, PoolConfigs.fromSettings(new ConfigLoader(
                ConfigCatalog.installed()).fromMap(values, Programs.SCALER)).values().toArray(PoolConfig[]::new));
        queued("serial", 2, null);

        cycle(scaler);

        assertEquals(1, fixture.active("large"), "the pool the agent maps first, as fallbacks list them");
        assertEquals(0, fixture.active("small"));
    }

    @Test
    void aJobsConstraintsPassItToThePoolWhoseNodeMeetsThem() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, threeSizes("pool.medium.resource.ib", "true",
                "pool.large.node.infiniband", "true"));
        queued("mpi", 2, "[{\"ib\":true}]");
        queued("rdma", 2, "[{\"node.infiniband\":true}]");
        queued("not-the-smallest", 2, "[{\"not\":{\"node.vm_size\":\"Standard_F4*\"}}]");

        cycle(scaler);

        assertEquals(0, fixture.active("small"));
        assertEquals(1, fixture.active("medium"),
                "mpi and not-the-smallest share one node of the cheapest meeting them");
        assertEquals(1, fixture.active("large"), "rdma: only large has InfiniBand");
        assertTrue(fixture.eventsOf(EventKind.UNSATISFIABLE).isEmpty());
    }

    @Test
    void theQueuesConstraintHoldsForEveryJobAndAJobNoPoolMeetsIsReportedWithWhy() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, threeSizes("pool.large.constraint",
                "{\"ncpus\": 16}"));
        queued("serial", 2, null);
        queued("licensed", 2, "[{\"node.location\":\"westeurope\"}]");

        cycle(scaler);

        assertEquals(0, fixture.active("small"), "the queue asks 16 CPUs a node");
        assertEquals(1, fixture.active("medium"));
        List<ScalerEvent> unsatisfiable = fixture.eventsOf(EventKind.UNSATISFIABLE);
        assertEquals(1, unsatisfiable.size());
        assertTrue(unsatisfiable.get(0).reason().contains("job licensed can never run in this pool: its constraints "
                + "are not met: Property[name=node.location value='westeurope'] != None"),
                unsatisfiable.get(0).reason());
    }

    @Test
    void poolsWithoutAPriceTakeThePriceListsForTheirSizeRegionAndPriority() throws Exception {
        Map<String, String> values = new LinkedHashMap<>();
        pool(values, "large", 64, null);
        values.put("pool.large.fallbacks", "medium, small");
        pool(values, "medium", 16, null);
        pool(values, "small", 4, null);
        for (String name : List.of("large", "medium", "small")) {
            values.put("pool." + name + ".node.location", "eastus");
        }
        values.put("pool.small.node.spot", "true");
        Map<String, PoolConfig> configs = PoolConfigs.fromSettings(new ConfigLoader(ConfigCatalog.installed())
                .fromMap(values, Programs.SCALER));
        PriceList list = PriceList.of(new ObjectMapper().readTree("""
                [{"armSkuName":"Standard_F64s_v2","armRegionName":"eastus","retailPrice":2.7,"type":"Consumption",
                  "unitOfMeasure":"1 Hour","productName":"Virtual Machines FSv2 Series","skuName":"F64s v2"},
                 {"armSkuName":"Standard_F16s_v2","armRegionName":"eastus","retailPrice":0.68,"type":"Consumption",
                  "unitOfMeasure":"1 Hour","productName":"Virtual Machines FSv2 Series","skuName":"F16s v2"},
                 {"armSkuName":"Standard_F4s_v2","armRegionName":"eastus","retailPrice":0.169,"type":"Consumption",
                  "unitOfMeasure":"1 Hour","productName":"Virtual Machines FSv2 Series","skuName":"F4s v2"},
                 {"armSkuName":"Standard_F4s_v2","armRegionName":"eastus","retailPrice":0.0203,"type":"Consumption",
                  "unitOfMeasure":"1 Hour","productName":"Virtual Machines FSv2 Series","skuName":"F4s v2 Spot"}]"""));
        List<PoolRuntime> group = new java.util.ArrayList<>();
        for (String name : List.of("large", "medium", "small")) {
            fixture.cloud.addScaleSet(name, 10, name, java.time.Duration.ofMinutes(2));
            group.add(new PoolRuntime(configs.get(name), fixture.cloud.provider(name), null, () -> list));
        }
        assertEquals(0.0203, group.get(2).pricePerHour(), "a Spot pool's Spot price");
        assertEquals(List.of("small", "medium", "large"),
                Scaler.cheapestFirst(group).stream().map(PoolRuntime::name).toList());
        assertEquals(List.of("large", "medium", "small"), Scaler.cheapestFirst(List.of(group.get(0), group.get(1),
                new PoolRuntime(configs.get("small"), fixture.cloud.provider("small")))).stream()
                .map(PoolRuntime::name).toList(), "a pool with no price at all leaves the listed order");
    }

    @Test
    void aConstraintOnAFallbackOrOneThatCannotBeReadIsRefusedByKey() {
        ConfigException onFallback = Assertions.assertThrows(ConfigException.class,
                () -> threeSizes("pool.small.constraint", "{\"ncpus\": 2}"));
        assertTrue(onFallback.problems().get(0).startsWith("pool.small.constraint is set on a fallback"),
                onFallback.getMessage());
        ConfigException unreadable = Assertions.assertThrows(ConfigException.class,
                () -> threeSizes("pool.large.constraint", "{\"or\": [{\"ncpus\": 2}]}"));
        assertTrue(unreadable.problems().get(0).startsWith("pool.large.constraint: $.or must be an array of at "
                + "least 2"), unreadable.getMessage());
        ConfigException property = Assertions.assertThrows(ConfigException.class,
                () -> threeSizes("pool.small.node.colour", "red"));
        assertTrue(property.problems().get(0).startsWith("pool.small.node.colour: node.colour is not a property"),
                property.getMessage());
        ConfigException typed = Assertions.assertThrows(ConfigException.class,
                () -> threeSizes("pool.small.node.spot", "yes", "pool.small.node.memory", "448g"));
        assertEquals(List.of("pool.small.node.memory=448g: expected a quantity, e.g. memory::448g",
                "pool.small.node.spot=yes: expected true or false"), typed.problems().stream().sorted().toList());
    }
}
