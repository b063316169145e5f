package io.hpcscale.common.exec;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounds on one command, with the settings that control them so errors can name them.
 *
 * @param timeout        the command is killed (with its children) after this long
 * @param maxOutputBytes output beyond this is not kept and fails the command
 */
public record CommandLimits(Duration timeout, String timeoutSetting, long maxOutputBytes, String maxOutputSetting) {
    public CommandLimits {
        Objects.requireNonNull(timeout, "timeout");
        if (maxOutputBytes < 1) {
            throw new IllegalArgumentException("maxOutputBytes must be positive");
        }
    }
}
