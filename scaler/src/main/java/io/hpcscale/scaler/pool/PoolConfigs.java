package io.hpcscale.scaler.pool;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Durations;
import io.hpcscale.common.config.PoolGroups;
import io.hpcscale.common.config.PoolSettings;
import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.Programs;
import io.hpcscale.scaler.match.Constraint;
import io.hpcscale.scaler.match.ConstraintException;
import io.hpcscale.scaler.match.ConstraintParser;
import io.hpcscale.scaler.match.NodeProperties;
import io.hpcscale.scaler.match.Quantity;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The pools of the scaler's configuration, with the checks that span several keys. */
public final class PoolConfigs {
    private static final Logger log = LoggerFactory.getLogger(PoolConfigs.class);
    /** The core's providers, which cannot read a VM's shape; a cloud module's may. */
    private static final Set<String> PROVIDERS_NOT_READING_SHAPES = Set.of("command", "simulated");
    private static final String FOLLOW_POWER_REQUESTS = "followPowerRequests";
    private static final String FORMER_FOLLOW_POWER_REQUESTS = "slurmPowerSaving";
    private static final String WARM_SCHEDULE = "warmSchedule";
    private static final String DEMAND = "demand";
    private static final String WARM_SCHEDULE_ZONE = "warmScheduleZone";
    private static final AtomicBoolean warnedFormerName = new AtomicBoolean();
    /** Properties that follow from others: whether the node is in a placement group, and the pool's own name. */
    private static final Set<String> DERIVED_PROPERTIES = Set.of("colocated", "nodearray");

    private PoolConfigs() {
    }

    /**
     * One pool with the shipped default of every setting not given, built by the same path as a configured pool:
     * what the demo, the simulator and the tests use, so they never drift from what ships.
     *
     * @param settings pool properties by name without the {@code pool.<name>.} prefix, e.g. {@code min} → {@code 1}
     */
    public static PoolConfig withDefaults(String name, VmShape shape, int max, Map<String, String> settings) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("pool." + name + ".provider", "simulated");
        values.put("pool." + name + ".cpus", Integer.toString(shape.cpus()));
        values.put("pool." + name + ".memoryMb", Long.toString(Math.max(1, shape.memoryMb())));
        values.put("pool." + name + ".gpus", Integer.toString(shape.gpus()));
        values.put("pool." + name + ".max", Integer.toString(max));
        settings.forEach((property, value) -> values.put("pool." + name + "." + property, value));
        return fromSettings(new ConfigLoader(ConfigCatalog.installed()).fromMap(values, Programs.SCALER)).get(name);
    }

    public static PoolConfig withDefaults(String name, VmShape shape, int max) {
        return withDefaults(name, shape, max, Map.of());
    }

    /** @throws ConfigException when no pool is configured or a pool's settings contradict each other */
    public static Map<String, PoolConfig> fromSettings(Settings settings) {
        if (settings.poolNames().isEmpty()) {
            throw new ConfigException("no pools are configured: add pool.<name>.provider and .max (and its provider's "
                    + "settings) for each scale set hpcscale should scale (see config.example.properties)");
        }
        PoolGroups groups = PoolGroups.fromSettings(settings);
        Map<String, PoolConfig> pools = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (String name : settings.poolNames()) {
            PoolSettings pool = settings.pool(name);
            int min = pool.intValue("min");
            int max = pool.intValue("max");
            if (min > max) {
                problems.add(pool.key("min") + "=" + min + " is more than " + pool.key("max") + "=" + max
                        + ": min must not exceed max");
                continue;
            }
            ShapeSettings shape = new ShapeSettings(pool.optionalInteger("cpus").map(Long::intValue).orElse(null),
                    pool.optionalInteger("memoryMb").orElse(null),
                    pool.optionalInteger("gpus").map(Long::intValue).orElse(null));
            if (shape.complete().isEmpty() && PROVIDERS_NOT_READING_SHAPES.contains(pool.string("provider"))) {
                problems.add(pool.key("cpus") + " and " + pool.key("memoryMb") + " are required for "
                        + pool.key("provider") + " = " + pool.string("provider") + ": only a cloud module's provider (azure) reads "
                        + "them from the VM size");
                continue;
            }
            boolean followsPowerRequests = followPowerRequests(pool, problems);
            pools.put(name, new PoolConfig(name, shape, shape.complete().orElse(null),
                    min, max,
                    pool.duration("idleTimeout"), pool.duration("bootTimeout"), pool.bool("countHeldJobs"),
                    StopAction.fromSetting(pool.string("stopAction")), pool.intValue("maxStartPerCycle"),
                    pool.intValue("maxStopPerCycle"), pool.intValue("bootFailuresBeforeBackoff"),
                    pool.duration("capacityBackoff"), followsPowerRequests,
                    groups.group(name).subList(1, groups.group(name).size()),
                    "fixed".equals(pool.string("target")) ? new FixedTarget(
                            FixedTarget.Shrink.fromSetting(pool.string("shrink"))) : null,
                    new EvictionBackoff(pool.intValue("evictionRoundsBeforeBackoff"),
                            pool.duration("evictionWindow")), decisions(pool, problems),
                    matching(settings, pool, groups, problems), pool.duration("gangTimeout"),
                    new Protection(pool.intValue("protectAfter"), pool.duration("protectProbeAfter")),
                    new OrphanPolicy(pool.duration("orphanAfter"), pool.bool("stopOrphans")),
                    pool.optionalString("healthCheck").isPresent(), adaptiveIdle(pool, problems),
                    warm(pool, max, problems), DemandModel.fromSetting(pool.string(DEMAND)),
                    pool.duration("backfillWindow")));
            boolean decidesItsOwnCount = "fixed".equals(pool.string("target")) || followsPowerRequests;
            if (decidesItsOwnCount && (pool.intValue("warm") > 0 || pool.isSet(WARM_SCHEDULE)
                    || "adaptive".equals(pool.string("idlePolicy")))) {
                problems.add(pool.key("warm") + ", " + pool.key(WARM_SCHEDULE) + " and " + pool.key("idlePolicy")
                        + " = adaptive apply to a pool that follows its queued jobs; "
                        + ("fixed".equals(pool.string("target")) ? pool.key("target")
                        + " = fixed keeps the count it is given" : pool.key(FOLLOW_POWER_REQUESTS) + " = true lets "
                        + "the scheduler decide which nodes run") + ": remove them");
            }
            if ("fixed".equals(pool.string("target")) && followsPowerRequests) {
                problems.add(pool.key("target") + " = fixed cannot be combined with " + pool.key(FOLLOW_POWER_REQUESTS)
                        + " = true: the scheduler decides which nodes run; choose one");
            }
            if ("fixed".equals(pool.string("target")) && (groups.isFallback(name) || groups.group(name).size() > 1)) {
                problems.add(pool.key("target") + " = fixed cannot be combined with fallback pools: a fixed pool "
                        + "keeps its count whatever the jobs, so there are no jobs to pass on; give each pool its "
                        + "own target");
            }
            if (pool.bool("stopOrphans") && groups.isFallback(name)) {
                problems.add(pool.key("stopOrphans") + " = true on a fallback pool: its nodes are reported in pool "
                        + groups.primaryOf(name).orElseThrow() + "'s partition, where a stop's last check does not "
                        + "look; report orphans only (remove the line)");
            }
            if (followsPowerRequests && "hibernate".equals(pool.string("stopAction"))) {
                // Slurm powers a node up for a job and expects it to register as after a boot; a hibernated node's
                // slurmd never stopped, and no drain holds it for a health check before the job lands.
                problems.add(pool.key("stopAction") + " = hibernate cannot be combined with "
                        + pool.key(FOLLOW_POWER_REQUESTS) + " = true: Slurm powers nodes up for jobs at once and "
                        + "expects each to boot and register; use stopAction = deallocate");
            }
            if (DemandModel.BACKFILL.setting().equals(pool.string(DEMAND))) {
                backfillProblems(pool, groups, followsPowerRequests).ifPresent(problems::add);
            }
            if (followsPowerRequests && (groups.isFallback(name) || groups.group(name).size() > 1)) {
                problems.add(pool.key(FOLLOW_POWER_REQUESTS) + " = true cannot be combined with fallback pools: the "
                        + "scheduler chooses which nodes to resume, so there is nothing for a fallback to take over");
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return pools;
    }

    /**
     * Why {@code demand = backfill} does not apply to the pool, if it does not: the forecast is of one scheduler's
     * reservations over one pool's nodes.
     */
    private static Optional<String> backfillProblems(PoolSettings pool, PoolGroups groups,
            boolean followsPowerRequests) {
        String setting = pool.key(DEMAND) + " = backfill";
        if ("fixed".equals(pool.string("target")) || followsPowerRequests) {
            return Optional.of(setting + " applies to a pool that follows its queued jobs; " + ("fixed".equals(
                    pool.string("target")) ? pool.key("target") + " = fixed keeps the count it is given"
                    : pool.key(FOLLOW_POWER_REQUESTS) + " = true lets the scheduler decide which nodes run, from its "
                    + "own reservations") + ": remove it");
        }
        if (groups.isFallback(pool.name()) || groups.group(pool.name()).size() > 1) {
            return Optional.of(setting + " cannot be combined with fallback pools: the scheduler reserves nodes across "
                    + "every pool of the queue, and the forecast sees one pool's; remove it or the fallbacks");
        }
        return Optional.empty();
    }

    /**
     * The warm nodes the pool keeps: {@code warm} at all hours, more in {@code warmSchedule}'s windows; never more than
     * the pool's max.
     */
    private static WarmSchedule warm(PoolSettings pool, int max, List<String> problems) {
        int always = pool.intValue("warm");
        if (always > max) {
            problems.add(pool.key("warm") + " = " + always + " is more than " + pool.key("max") + " = " + max
                    + ": the pool cannot keep more warm nodes than it has");
        }
        Optional<String> text = pool.optionalString(WARM_SCHEDULE);
        if (text.isEmpty()) {
            if (pool.isSet(WARM_SCHEDULE_ZONE)) {
                problems.add(pool.key(WARM_SCHEDULE_ZONE) + " is set but " + pool.key(WARM_SCHEDULE) + " is not: the "
                        + "zone has no windows to read; add the schedule or remove the zone");
            }
            return WarmSchedule.always(always);
        }
        ZoneId zone;
        try {
            zone = ZoneId.of(pool.string(WARM_SCHEDULE_ZONE));
        } catch (DateTimeException e) {
            problems.add(pool.key(WARM_SCHEDULE_ZONE) + " = " + pool.string(WARM_SCHEDULE_ZONE) + " is not a time "
                    + "zone: give a region such as Europe/Paris or America/Chicago, or UTC");
            // Read on UTC's clock all the same, so that whatever is wrong in the schedule is said at the same time.
            zone = ZoneOffset.UTC;
        }
        try {
            WarmSchedule schedule = WarmScheduleParser.parse(always, text.get(), zone);
            if (schedule.most() > max) {
                problems.add(pool.key(WARM_SCHEDULE) + " asks for " + schedule.most() + " warm nodes, more than "
                        + pool.key("max") + " = " + max + ": the pool cannot keep more warm nodes than it has");
            }
            return schedule;
        } catch (IllegalArgumentException e) {
            problems.add(pool.key(WARM_SCHEDULE) + " = " + text.get() + ": " + e.getMessage() + ", for example "
                    + WarmScheduleParser.EXAMPLE);
            return WarmSchedule.always(always);
        }
    }

    /** The adaptive idle timeout's bounds, or null when the pool's idle timeout is fixed. */
    private static PoolConfig.AdaptiveIdle adaptiveIdle(PoolSettings pool, List<String> problems) {
        if (!"adaptive".equals(pool.string("idlePolicy"))) {
            return null;
        }
        Duration min = pool.duration("idleTimeoutMin");
        Duration max = pool.duration("idleTimeoutMax");
        if (min.compareTo(max) > 0) {
            problems.add(pool.key("idleTimeoutMin") + " = " + Durations.format(min) + " is more than "
                    + pool.key("idleTimeoutMax") + " = " + Durations.format(max) + ": the adaptive idle timeout is "
                    + "chosen between them, so min must not exceed max");
        }
        return new PoolConfig.AdaptiveIdle(min, max);
    }

    /**
     * Whether the pool's scheduler decides which nodes run; {@code slurmPowerSaving}, its former name, is still read
     * (with a warning) so that a file written for an earlier release keeps working.
     */
    private static boolean followPowerRequests(PoolSettings pool, List<String> problems) {
        if (!pool.isSet(FORMER_FOLLOW_POWER_REQUESTS)) {
            return pool.bool(FOLLOW_POWER_REQUESTS);
        }
        if (pool.isSet(FOLLOW_POWER_REQUESTS)
                && pool.bool(FOLLOW_POWER_REQUESTS) != pool.bool(FORMER_FOLLOW_POWER_REQUESTS)) {
            problems.add(pool.key(FORMER_FOLLOW_POWER_REQUESTS) + " is the former name of "
                    + pool.key(FOLLOW_POWER_REQUESTS) + " and the two disagree: keep only the second");
        } else if (!warnedFormerName.getAndSet(true)) {
            log.warn("{} is the former name of {}: rename it (it is still read)", pool.key(FORMER_FOLLOW_POWER_REQUESTS),
                    pool.key(FOLLOW_POWER_REQUESTS));
        }
        return pool.bool(FORMER_FOLLOW_POWER_REQUESTS);
    }

    /** Price, node properties, resources and the queue's constraint; each problem named by its key. */
    private static PoolMatching matching(Settings settings, PoolSettings pool, PoolGroups groups,
            List<String> problems) {
        Map<String, Object> properties = new LinkedHashMap<>();
        Map<String, Object> resources = new LinkedHashMap<>();
        String nodePrefix = pool.key("node.");
        String resourcePrefix = pool.key("resource.");
        settings.values().forEach((key, text) -> {
            try {
                if (key.startsWith(nodePrefix)) {
                    String property = key.substring(nodePrefix.length());
                    if (!NodeProperties.NAMES.contains(property) || DERIVED_PROPERTIES.contains(property)) {
                        problems.add(key + ": node." + property + " is not a property one sets; set one of node."
                                + String.join(", node.", settable()));
                    } else {
                        Object value = PoolNode.settingValue(text);
                        String expected = expectedOf(property, value);
                        if (expected != null) {
                            problems.add(key + "=" + text + ": expected " + expected);
                        } else {
                            properties.put(property, value);
                        }
                    }
                } else if (key.startsWith(resourcePrefix)) {
                    resources.put(key.substring(resourcePrefix.length()), PoolNode.settingValue(text));
                }
            } catch (IllegalArgumentException e) {
                problems.add(key + "=" + text + ": " + e.getMessage());
            }
        });
        Constraint constraint = Constraint.NONE;
        if (pool.isSet("constraint")) {
            if (groups.isFallback(pool.name())) {
                problems.add(pool.key("constraint") + " is set on a fallback: the constraint is the queue's, set it "
                        + "on pool." + groups.primaryOf(pool.name()).orElseThrow() + ".constraint, the pool whose "
                        + "queue the agent maps");
            }
            try {
                constraint = new ConstraintParser().parse(pool.string("constraint"));
            } catch (ConstraintException e) {
                problems.add(pool.key("constraint") + ": " + e.getMessage());
            }
        }
        return new PoolMatching(settings.optionalDecimal(pool.key("pricePerHour")).orElse(null),
                pool.optionalString("vmSize").orElse(null), properties,
                resources, constraint);
    }

    /** What the property's value must be, when this one is not; null when it is. */
    private static String expectedOf(String property, Object value) {
        return switch (property) {
            case "spot", "infiniband" -> value instanceof Boolean ? null : "true or false";
            case "vcpu_count", "pcpu_count", "gpu_count" -> value instanceof Long ? null : "a whole number";
            case "memory" -> value instanceof Quantity ? null : "a quantity, e.g. memory::448g";
            default -> null;
        };
    }

    private static List<String> settable() {
        return NodeProperties.NAMES.stream().filter(p -> !DERIVED_PROPERTIES.contains(p)).toList();
    }

    /**
     * The pool's decisions in order; the scaler's own must all be there, once each and in their order, so that a
     * drain is completed before idle nodes are counted and nothing of the scaler's safety is left out.
     */
    private static List<String> decisions(PoolSettings pool, List<String> problems) {
        List<String> decisions = Arrays.stream(pool.string("decisions").split(",")).map(String::strip)
                .filter(d -> !d.isEmpty()).toList();
        List<String> own = decisions.stream().filter(PoolConfig.OWN_DECISIONS::contains).toList();
        if (!own.equals(PoolConfig.OWN_DECISIONS)) {
            problems.add(pool.key("decisions") + "=" + pool.string("decisions") + " must name "
                    + String.join(", ", PoolConfig.OWN_DECISIONS) + " once each and in this order; place your own "
                    + "decisions among them");
        } else if (decisions.size() != new HashSet<>(decisions).size()) {
            problems.add(pool.key("decisions") + "=" + pool.string("decisions") + " names a decision twice");
        }
        return decisions;
    }
}
