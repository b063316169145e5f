package io.hpcscale.common.logging;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What is written on stderr while it is open: the console appender of logback.xml looks System.err up for each
 * line, so this sees exactly the bytes an operator's journal would. Close it (try-with-resources) to put stderr back.
 */
public final class CapturedStderr implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    public CapturedStderr() {
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    }

    /** The lines written so far, without their line ends. */
    public List<String> lines() {
        System.err.flush();
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
