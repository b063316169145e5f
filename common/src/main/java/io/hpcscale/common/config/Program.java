package io.hpcscale.common.config;

/**
 * One program that reads the properties file. Each module that builds a program names it here; the keys it cannot
 * start without say so by this name in their {@code requiredBy}.
 *
 * @param name        the command's name, e.g. {@code hpcscale-agent-pbs}
 * @param description what {@code --help} says the program does
 */
public record Program(String name, String description) {
}
