package io.hpcscale.common.exec;

import java.time.Duration;

/** What an {@link OutputReader} made of the output of a command that exited with status 0. */
public record StreamedResult<T>(CommandLine command, T value, String stderr, Duration elapsed) {
}
