package io.hpcscale.common.exec;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a command's standard output while the command runs, so that no output, however large, is ever held whole.
 *
 * @param <T> what the reader makes of the output
 * @param <E> how the reader says the output cannot be made sense of
 */
@FunctionalInterface
public interface OutputReader<T, E extends Exception> {
    /**
     * Reads the output as it is printed. What the reader leaves unread is read and dropped for it, so the command is
     * never left blocked on a full pipe. A command that fails (exit status, timeout, too much output) is reported
     * instead of whatever the reader threw, since its failure is what cut the output short.
     *
     * @throws IOException reading the output itself failed
     * @throws E           the output cannot be made sense of
     */
    T read(InputStream stdout) throws IOException, E;
}
