package io.hpcscale.common.agent.cli;

import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.CommandRunner;

/** How a scheduler module makes its adapter from the settings: the one piece each agent module supplies. */
@FunctionalInterface
public interface AdapterFactory {
    SchedulerAdapter create(Settings settings, CommandRunner runner);
}
