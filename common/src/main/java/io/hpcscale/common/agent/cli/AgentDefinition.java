package io.hpcscale.common.agent.cli;

import io.hpcscale.common.config.Component;

/**
 * What makes one scheduler's agent program.
 *
 * @param queueProperty the pool setting naming what the pool serves: {@code queue} (PBS) or {@code partition}
 *                      (Slurm)
 */
public record AgentDefinition(Component component, String queueProperty, AdapterFactory adapterFactory) {
}
