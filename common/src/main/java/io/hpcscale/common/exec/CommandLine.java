package io.hpcscale.common.exec;

import io.hpcscale.common.secrets.Redactor;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One command to run.
 *
 * @param argv    the program and its arguments; no shell is involved
 * @param setting     the configuration key that names the program, quoted in errors so the administrator knows
 *                    what to fix; null when the program is not configurable
 * @param environment variables set for this command on top of the runner's (SLURM_CONF, for one)
 * @param input       what the command reads on its standard input (UTF-8), which is then closed; empty for none
 */
public record CommandLine(List<String> argv, CommandLimits limits, String setting, Map<String, String> environment,
        String input) {
    public CommandLine {
        argv = List.copyOf(argv);
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("a command needs a program");
        }
        Objects.requireNonNull(limits, "limits");
        environment = Map.copyOf(environment);
        input = input == null ? "" : input;
    }

    public CommandLine(List<String> argv, CommandLimits limits, String setting, Map<String, String> environment) {
        this(argv, limits, setting, environment, "");
    }

    public CommandLine(List<String> argv, CommandLimits limits, String setting) {
        this(argv, limits, setting, Map.of());
    }

    /** The same command, reading {@code text} on its standard input. */
    public CommandLine withInput(String text) {
        return new CommandLine(argv, limits, setting, environment, text);
    }

    public String program() {
        return argv.get(0);
    }

    /** The command as a person would type it in a shell, for messages; the values of secret options hidden. */
    public String display() {
        StringBuilder out = new StringBuilder();
        for (String arg : Redactor.argv(argv)) {
            if (out.length() > 0) {
                out.append(' ');
            }
            boolean needsQuotes = arg.isEmpty() || arg.chars().anyMatch(ch -> " \t\"'$\\;&|<>()*?".indexOf(ch) >= 0);
            out.append(needsQuotes ? "'" + arg.replace("'", "'\\''") + "'" : arg);
        }
        return out.toString();
    }

    String settingHint() {
        return setting == null ? "" : " (setting " + setting + ")";
    }
}
