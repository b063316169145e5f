package io.hpcscale.common.exec;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Passes output on up to a cap; past it, drops the rest and reports the overflow once. Written by one pump thread,
 * asked about by another.
 */
final class CappedOutput extends OutputStream {
    private final long cap;
    private final Runnable onOverflow;
    private final OutputStream target;
    private long written;
    private volatile boolean overflowed;

    CappedOutput(long cap, Runnable onOverflow, OutputStream target) {
        this.cap = cap;
        this.onOverflow = onOverflow;
        this.target = target;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        long room = cap - written;
        if (len <= room) {
            written += len;
            target.write(b, off, len);
            return;
        }
        if (room > 0) {
            written += room;
            target.write(b, off, (int) room);
        }
        if (!overflowed) {
            overflowed = true;
            onOverflow.run();
        }
    }

    boolean overflowed() {
        return overflowed;
    }
}
