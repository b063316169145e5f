package io.hpcscale.common.agent.cli;

import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.config.Program;
import io.hpcscale.common.config.Settings;
import java.util.function.Function;

/**
 * What makes one scheduler's agent program.
 *
 * @param queueProperty  the pool setting naming what the pool serves: {@code queue} (PBS) or {@code partition}
 *                       (Slurm)
 * @param multiQueueRule which pools a job that may run in several queues counts for, from the settings
 */
public record AgentDefinition(Program program, String queueProperty, AdapterFactory adapterFactory,
        Function<Settings, PoolMap.MultiQueueRule> multiQueueRule) {

    /** A scheduler whose jobs wait in one queue each. */
    public AgentDefinition(Program program, String queueProperty, AdapterFactory adapterFactory) {
        this(program, queueProperty, adapterFactory, settings -> PoolMap.MultiQueueRule.FIRST);
    }
}
