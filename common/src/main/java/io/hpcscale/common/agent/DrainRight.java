package io.hpcscale.common.agent;

/**
 * What a harmless probe of the scheduler said about the agent's right to take nodes out of service.
 *
 * @param granted whether the scheduler would take a node out of service on the agent's word; null when the probe
 *                could not tell
 * @param detail  what the scheduler answered, and what to do about a refusal
 */
public record DrainRight(Boolean granted, String detail) {
}
