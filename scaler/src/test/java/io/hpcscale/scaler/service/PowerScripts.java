package io.hpcscale.scaler.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * Stand-in power commands for the command provider: instance {@code vmN} with node {@code nodeN} is "running" while
 * the file {@code vmN.on} exists. {@code power-on} and {@code power-off} log each call in {@code calls.log}
 * ({@code begin on vm1 <pid>}, then {@code end on vm1}); with a file {@code slow} present, power-on takes as many
 * seconds as it holds, and leaves {@code began-vmN} when it begins.
 */
final class PowerScripts {
    private final Path dir;

    PowerScripts(Path dir, int instances) throws IOException {
        this.dir = dir;
        executable("power-list", """
                for i in $(seq 1 %d); do
                  if [ -f "$D/vm$i.on" ]; then echo "vm$i node$i running"; else echo "vm$i node$i stopped"; fi
                done
                """.formatted(instances));
        executable("power-on", """
                echo "begin on $1 $$" >> "$D/calls.log"
                if [ -f "$D/slow" ]; then touch "$D/began-$1"; sleep "$(cat "$D/slow")"; fi
                touch "$D/$1.on"
                echo "end on $1" >> "$D/calls.log"
                """);
        executable("power-off", """
                echo "begin off $1 $$" >> "$D/calls.log"
                rm -f "$D/$1.on"
                echo "end off $1" >> "$D/calls.log"
                """);
    }

    Path dir() {
        return dir;
    }

    List<String> configLines(String pool) {
        return List.of("pool." + pool + ".provider = command",
                "pool." + pool + ".command.list = " + dir.resolve("power-list"),
                "pool." + pool + ".command.start = " + dir.resolve("power-on") + " {instance}",
                "pool." + pool + ".command.stop = " + dir.resolve("power-off") + " {instance}",
                "pool." + pool + ".command.timeout = 30s");
    }

    /** The calls begun and ended, e.g. "begin on vm1 4242", "end on vm1". */
    List<String> calls() throws IOException {
        Path log = dir.resolve("calls.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    long begun(String action, String instance) throws IOException {
        return calls().stream().filter(c -> c.startsWith("begin " + action + " " + instance + " ")).count();
    }

    boolean on(String instance) {
        return Files.exists(dir.resolve(instance + ".on"));
    }

    void slow(int seconds) throws IOException {
        Files.writeString(dir.resolve("slow"), Integer.toString(seconds));
    }

    private void executable(String name, String body) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, "#!/bin/sh\nD='" + dir + "'\n" + body);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
