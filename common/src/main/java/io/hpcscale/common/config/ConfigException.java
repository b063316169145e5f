package io.hpcscale.common.config;

import java.util.List;

/**
 * The configuration cannot be used. Each problem names the key (or environment variable) and the expected form, so
 * the administrator can fix all of them in one go.
 */
public class ConfigException extends RuntimeException {
    private final List<String> problems;

    public ConfigException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    public ConfigException(String problem) {
        this(List.of(problem));
    }

    public List<String> problems() {
        return problems;
    }
}
