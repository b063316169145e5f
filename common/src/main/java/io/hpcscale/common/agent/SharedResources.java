package io.hpcscale.common.agent;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.CommandException;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandLine;
import io.hpcscale.common.exec.CommandRunner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counted resources that jobs share across the cluster, licences above all ({@code shared.<r>.total}, or
 * {@code shared.<r>.command} printing how many are free now, as PBS's server dynamic resources do). How many are free
 * for jobs not yet running is read each cycle; a count that cannot be read is not known, and holds no job back.
 */
public final class SharedResources {
    private static final String PREFIX = "shared.";

    private record Source(String name, Long total, CommandLine command) {
    }

    /**
     * What is free this cycle.
     *
     * @param free     by resource, for those whose count was read
     * @param problems one line for each count that could not be read, saying which setting and why
     */
    public record Reading(Map<String, Long> free, List<String> problems) {
        public Reading {
            free = Map.copyOf(free);
            problems = List.copyOf(problems);
        }
    }

    private final List<Source> sources;
    private final CommandRunner runner;

    private SharedResources(List<Source> sources, CommandRunner runner) {
        this.sources = List.copyOf(sources);
        this.runner = runner;
    }

    public static SharedResources none() {
        return new SharedResources(List.of(), null);
    }

    /**
     * The {@code shared.<r>.*} settings; a command runs in a shell, within the agent's command limits.
     *
     * @throws ConfigException naming each resource given both a total and a command
     */
    public static SharedResources fromSettings(Settings settings, CommandRunner runner, CommandLimits limits) {
        Map<String, Source> byName = new TreeMap<>();
        settings.values().forEach((key, value) -> {
            if (!key.startsWith(PREFIX)) {
                return;
            }
            String name = key.substring(PREFIX.length(), key.lastIndexOf('.'));
            Source known = byName.getOrDefault(name, new Source(name, null, null));
            if (key.endsWith(".total")) {
                byName.put(name, new Source(name, Long.parseLong(value.strip()), known.command()));
            } else if (key.endsWith(".command")) {
                byName.put(name, new Source(name, known.total(), new CommandLine(List.of("/bin/sh", "-c", value),
                        limits, key)));
            }
        });
        List<String> both = byName.values().stream().filter(s -> s.total() != null && s.command() != null)
                .map(s -> PREFIX + s.name() + ".total and " + PREFIX + s.name() + ".command are both set: keep the "
                        + "total for a fixed count, or the command for what is free now").toList();
        if (!both.isEmpty()) {
            throw new ConfigException(both);
        }
        return new SharedResources(new ArrayList<>(byName.values()), runner);
    }

    public boolean isEmpty() {
        return sources.isEmpty();
    }

    /** @param running the jobs running now, whose use a configured total does not yet leave free */
    public Reading read(List<SchedulerJob> running) throws InterruptedException {
        Map<String, Long> free = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (Source source : sources) {
            if (source.command() != null) {
                try {
                    free.put(source.name(), count(source, runner.run(source.command()).stdoutText()));
                } catch (CommandException | IllegalArgumentException e) {
                    problems.add(e.getMessage() + ": how many " + source.name() + " are free is not known this "
                            + "cycle, so no job waits for it");
                }
            } else {
                long used = 0;
                for (SchedulerJob job : running) {
                    used += job.asks().shared().getOrDefault(source.name(), 0L);
                }
                free.put(source.name(), Math.max(0, source.total() - used));
            }
        }
        return new Reading(free, problems);
    }

    private static long count(Source source, String output) {
        String first = output.strip().lines().findFirst().orElse("").strip();
        try {
            return Long.parseLong(first);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(source.command().setting() + " printed '" + abbreviate(first)
                    + "': it must print the number of " + source.name() + " free now, on its first line");
        }
    }

    private static String abbreviate(String text) {
        return text.length() > 60 ? text.substring(0, 60) + "..." : text;
    }
}
