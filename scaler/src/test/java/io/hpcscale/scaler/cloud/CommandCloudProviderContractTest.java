package io.hpcscale.scaler.cloud;

import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command provider against real processes, with commands written as docs/configuration.md asks of an
 * administrator's: a start of a running instance and a stop of a stopped one succeed and change nothing, and a
 * listing that must wait exits 75. Each "VM" is a long-running process.
 */
class CommandCloudProviderContractTest extends CloudProviderContract {
    @TempDir
    Path dir;

    @Override
    protected CloudProvider provider() throws IOException {
        script("vm-list", """
                if [ -f "$D/throttled" ]; then rm -f "$D/throttled"; echo "the BMC is busy" >&2; exit 75; fi
                for i in 1 2 3; do
                  if [ -f "$D/vm$i.pid" ] && kill -0 "$(cat "$D/vm$i.pid")" 2>/dev/null; then state=running; else state=stopped; fi
                  echo "vm$i node$i $state"
                done
                """);
        script("vm-start", """
                if [ -f "$D/$1.pid" ] && kill -0 "$(cat "$D/$1.pid")" 2>/dev/null; then exit 0; fi
                nohup sleep 3600 >/dev/null 2>&1 &
                echo $! > "$D/$1.pid"
                """);
        script("vm-stop", """
                [ -f "$D/$1.pid" ] || exit 0
                kill "$(cat "$D/$1.pid")" 2>/dev/null; rm -f "$D/$1.pid"
                """);
        CommandLimits limits = new CommandLimits(Duration.ofSeconds(5), "pool.rack.command.timeout", 1 << 20,
                "pool.rack.command.list");
        return new CommandCloudProvider(new ZtExecCommandRunner(), CommandCloudProvider.Commands.parse("rack",
                dir.resolve("vm-list").toString(), dir.resolve("vm-start") + " {instance}",
                dir.resolve("vm-stop") + " {instance} {node}", limits), CallGate.ALWAYS_OPEN);
    }

    @Override
    protected void throttleTheNextListing() throws IOException {
        Files.writeString(dir.resolve("throttled"), "");
    }

    @Override
    protected void settle() {
        // The commands finish what they do before they exit.
    }

    @AfterEach
    void killVms() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path pid : files.filter(f -> f.toString().endsWith(".pid")).toList()) {
                ProcessHandle.of(Long.parseLong(Files.readString(pid).trim())).ifPresent(ProcessHandle::destroy);
            }
        }
    }

    private void script(String name, String body) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, "#!/bin/sh\nD='" + dir + "'\n" + body);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
