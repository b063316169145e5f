package io.hpcscale.common.exec;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** What a command that exited with status 0 printed. */
public record CommandResult(CommandLine command, byte[] stdout, String stderr, Duration elapsed) {
    public String stdoutText() {
        return new String(stdout, StandardCharsets.UTF_8);
    }
}
