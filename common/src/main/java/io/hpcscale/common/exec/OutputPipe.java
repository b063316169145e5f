package io.hpcscale.common.exec;

import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;

/**
 * Hands a command's output from the thread that pumps it out of the process to the thread that reads it, through a
 * fixed buffer: a reader slower than the command slows the command down instead of filling memory.
 */
final class OutputPipe {
    private final byte[] ring;
    private int readAt;
    private int buffered;
    private boolean writerWaiting;
    private boolean readerWaiting;
    private boolean closed;
    private boolean abandoned;

    OutputPipe(int capacity) {
        this.ring = new byte[capacity];
    }

    /** Where the pump writes. Output that comes after {@link #close} or {@link #abandon} is dropped. */
    OutputStream sink() {
        return new OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                put(b, off, len);
            }
        };
    }

    /** What the reader reads: ends once the pipe is closed and everything before was read. */
    InputStream source() {
        return new InputStream() {
            @Override
            public int read() throws InterruptedIOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws InterruptedIOException {
                return take(b, off, len);
            }
        };
    }

    /**
     * No more output will come. While the pump waits for room, output is still flowing to the reader: the pipe then
     * closes once that output is in, so that the end of a command's output is never cut off by a slow reader.
     */
    synchronized void close() {
        boolean interrupted = false;
        while (writerWaiting && !abandoned) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
                break;
            }
        }
        closed = true;
        notifyAll();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The reader is done: whatever else comes is dropped, so the command never blocks on its output. */
    synchronized void abandon() {
        abandoned = true;
        buffered = 0;
        notifyAll();
    }

    private synchronized void put(byte[] b, int off, int len) {
        while (len > 0) {
            while (buffered == ring.length && !closed && !abandoned) {
                writerWaiting = true;
                try {
                    wait();
                } catch (InterruptedException e) {
                    // zt-exec interrupts its pump to end it: the output it carried is of no use to anyone now.
                    Thread.currentThread().interrupt();
                    writerWaiting = false;
                    notifyAll();
                    return;
                }
            }
            writerWaiting = false;
            if (closed || abandoned) {
                notifyAll();
                return;
            }
            int writeAt = (readAt + buffered) % ring.length;
            int n = Math.min(len, Math.min(ring.length - buffered, ring.length - writeAt));
            System.arraycopy(b, off, ring, writeAt, n);
            buffered += n;
            off += n;
            len -= n;
            if (readerWaiting) {
                notifyAll();
            }
        }
    }

    private synchronized int take(byte[] b, int off, int len) throws InterruptedIOException {
        if (len == 0) {
            return 0;
        }
        while (buffered == 0) {
            if (closed || abandoned) {
                return -1;
            }
            readerWaiting = true;
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the command's output");
            } finally {
                readerWaiting = false;
            }
        }
        int n = Math.min(len, Math.min(buffered, ring.length - readAt));
        System.arraycopy(ring, readAt, b, off, n);
        readAt = (readAt + n) % ring.length;
        buffered -= n;
        if (writerWaiting) {
            notifyAll();
        }
        return n;
    }
}
