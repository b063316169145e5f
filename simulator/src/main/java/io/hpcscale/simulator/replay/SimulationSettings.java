package io.hpcscale.simulator.replay;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.Durations;
import io.hpcscale.scaler.pool.DemandModel;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.VmShape;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How a trace is replayed.
 *
 * @param cpusPerNode             processors of the trace per node (1: one processor is one node)
 * @param maxNodes                instances the cloud has for the pool
 * @param evictionsPerInstanceHour Spot evictions per running instance-hour (0: none)
 * @param quota                   most instances active at once, or null
 * @param idleTimeout             hpcscale's pool setting
 * @param maxStartPerCycle        hpcscale's pool setting
 * @param maxStopPerCycle         hpcscale's pool setting
 * @param agentQuickInterval      hpcscale's agent.quickInterval: a job queued, started or ended, or a drain asked,
 *                                runs the agent's full read at this cadence rather than at agentInterval; 0 for never
 * @param scalerQuickInterval     hpcscale's scaler.quickInterval: the scaler runs at this cadence once the agent
 *                                wrote a change; 0 for never
 * @param staticSizes             node counts of the static policies to compare
 * @param fixedTarget             hpcscale's pool keeps this many instances ({@code target = fixed}) rather than what
 *                                the jobs need; null for demand
 * @param idleTimeoutMin          the adaptive idle timeout's shortest (hpcscale's pool setting)
 * @param idleTimeoutMax          the adaptive idle timeout's longest (hpcscale's pool setting)
 * @param warm                    hpcscale's pool setting: started, idle nodes kept beyond what jobs need
 * @param warmSchedule            hpcscale's pool setting: windows of the week with more warm nodes, or null
 * @param warmScheduleZone        the zone the windows are read in, or null for the trace's own ({@code
 *                                TimeZoneString}), or UTC when it has none
 * @param resumeTimes             hpcscale's pool stops with {@code stopAction = hibernate}, and a hibernated
 *                                instance resumes in this time rather than booting; null: it deallocates, as the
 *                                peers do
 * @param demand                  hpcscale's pool setting: every queued job is demand, or only those the scheduler's
 *                                backfilling would start with every node up
 */
public record SimulationSettings(
        int cpusPerNode,
        int maxNodes,
        BootTimes bootTimes,
        double evictionsPerInstanceHour,
        Integer quota,
        long seed,
        int min,
        Duration idleTimeout,
        int maxStartPerCycle,
        int maxStopPerCycle,
        Duration agentInterval,
        Duration scalerInterval,
        Duration agentQuickInterval,
        Duration scalerQuickInterval,
        Duration pintaInterval,
        List<Integer> staticSizes,
        Integer fixedTarget,
        Duration idleTimeoutMin,
        Duration idleTimeoutMax,
        int warm,
        String warmSchedule,
        String warmScheduleZone,
        BootTimes resumeTimes,
        DemandModel demand) {

    public SimulationSettings {
        staticSizes = List.copyOf(staticSizes);
        if (cpusPerNode < 1 || maxNodes < 1) {
            throw new IllegalArgumentException("--cpus-per-node and --max-nodes must be at least 1");
        }
        if (warm < 0 || warm > maxNodes) {
            throw new IllegalArgumentException("--warm must be between 0 and the pool's " + maxNodes + " nodes");
        }
        if ((warm > 0 || warmSchedule != null) && fixedTarget != null) {
            throw new IllegalArgumentException("--warm and --warm-schedule are for a pool that follows its jobs; with "
                    + "--target the pool keeps its count");
        }
        if (warmScheduleZone != null && warmSchedule == null) {
            throw new IllegalArgumentException("--warm-schedule-zone needs --warm-schedule");
        }
        if (warmSchedule != null) {
            checkWarmSchedule(maxNodes, warm, warmSchedule, warmScheduleZone);
        }
        if (idleTimeoutMin.compareTo(idleTimeoutMax) > 0) {
            throw new IllegalArgumentException("--idle-min must not be more than --idle-max");
        }
        if (demand == DemandModel.BACKFILL && fixedTarget != null) {
            throw new IllegalArgumentException("--demand backfill is for a pool that follows its jobs; with --target "
                    + "the pool keeps its count");
        }
        if (fixedTarget != null && (fixedTarget < 0 || fixedTarget > maxNodes)) {
            throw new IllegalArgumentException("--target must be between 0 and the pool's " + maxNodes + " nodes");
        }
    }

    /** Reads the schedule as the scaler would, and says what is wrong in the simulate command's words. */
    private static void checkWarmSchedule(int maxNodes, int warm, String schedule, String zone) {
        try {
            PoolConfigs.withDefaults("replay", new VmShape(1, 4096, 0), maxNodes, Map.of("warm", Integer.toString(warm),
                    "warmSchedule", schedule, "warmScheduleZone", zone == null ? "UTC" : zone));
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.getMessage().replace("pool.replay.warmScheduleZone",
                    "--warm-schedule-zone").replace("pool.replay.warmSchedule", "--warm-schedule")
                    .replace("pool.replay.max", "--max-nodes").replace("pool.replay.warm", "--warm"));
        }
    }

    /**
     * These settings for a comparison of VM sizes ({@link SizesComparison}): scale sets of this many instances, and
     * no quota, fixed target or evictions, which are settings of one pool.
     */
    SimulationSettings forSizes(int nodes) {
        return new SimulationSettings(cpusPerNode, nodes, bootTimes, 0, null, seed, min,
                idleTimeout, maxStartPerCycle, maxStopPerCycle, agentInterval, scalerInterval, agentQuickInterval,
                scalerQuickInterval, pintaInterval, List.of(nodes), null, idleTimeoutMin, idleTimeoutMax, warm,
                warmSchedule, warmScheduleZone, resumeTimes, demand);
    }

    /** These settings with a trace's processors mapped to nodes of this many. */
    public SimulationSettings withCpusPerNode(int cpus) {
        return new SimulationSettings(cpus, maxNodes, bootTimes, evictionsPerInstanceHour, quota, seed, min,
                idleTimeout, maxStartPerCycle, maxStopPerCycle, agentInterval, scalerInterval, agentQuickInterval,
                scalerQuickInterval, pintaInterval, staticSizes, fixedTarget, idleTimeoutMin, idleTimeoutMax, warm,
                warmSchedule, warmScheduleZone, resumeTimes, demand);
    }

    /** The simulate command's defaults, with hpcscale's pool at the pool settings' defaults. */
    public static SimulationSettings defaults(int maxNodes) {
        ConfigCatalog catalog = ConfigCatalog.installed();
        return new SimulationSettings(1, maxNodes, BootTimes.parse("3m"), 0, null, 1,
                Integer.parseInt(catalog.require("pool.<name>.min").defaultValue()),
                Durations.parse(catalog.require("pool.<name>.idleTimeout").defaultValue()),
                Integer.parseInt(catalog.require("pool.<name>.maxStartPerCycle").defaultValue()),
                Integer.parseInt(catalog.require("pool.<name>.maxStopPerCycle").defaultValue()),
                Duration.ofMinutes(2), Duration.ofMinutes(1),
                Durations.parse(catalog.require("agent.quickInterval").defaultValue()),
                Durations.parse(catalog.require("scaler.quickInterval").defaultValue()), Duration.ofMinutes(10),
                List.of(maxNodes), null, Durations.parse(catalog.require("pool.<name>.idleTimeoutMin").defaultValue()),
                Durations.parse(catalog.require("pool.<name>.idleTimeoutMax").defaultValue()),
                Integer.parseInt(catalog.require("pool.<name>.warm").defaultValue()), null, null, null,
                DemandModel.fromSetting(catalog.require("pool.<name>.demand").defaultValue()));
    }
}
