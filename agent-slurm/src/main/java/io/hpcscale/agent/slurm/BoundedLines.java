package io.hpcscale.agent.slurm;

import java.io.IOException;
import java.io.Reader;

/**
 * The lines of squeue's or sinfo's pipe-separated output, each kept only up to a bound: a command may print up to
 * agent.commandMaxOutput (512 MB by default) on one line, which {@link java.io.BufferedReader#readLine()} would hold
 * whole, twice over, in an agent meant to run in 512 MB.
 */
final class BoundedLines {
    /** Far more than a real line: the longest fields are node lists, which Slurm prints compressed. */
    static final int MAX_LINE_CHARS = 1 << 20;

    /**
     * One line, or the number of a line longer than the bound, whose text was not kept.
     *
     * @param text   the line without its end, or null when it was too long
     * @param number the line's number, from 1
     */
    record Line(String text, long number) {
        boolean tooLong() {
            return text == null;
        }
    }

    private final Reader in;
    private final int maxChars;
    private final StringBuilder line = new StringBuilder();
    private long number;

    BoundedLines(Reader in, int maxChars) {
        this.in = in;
        this.maxChars = maxChars;
    }

    /** The next line, or null at the end. Lines end at \n, with a \r before it dropped: Slurm prints no other. */
    Line next() throws IOException {
        line.setLength(0);
        boolean tooLong = false;
        int c = in.read();
        if (c < 0) {
            return null;
        }
        for (; c >= 0 && c != '\n'; c = in.read()) {
            if (line.length() < maxChars) {
                line.append((char) c);
            } else {
                tooLong = true;
            }
        }
        if (!tooLong && !line.isEmpty() && line.charAt(line.length() - 1) == '\r') {
            line.setLength(line.length() - 1);
        }
        number++;
        return new Line(tooLong ? null : line.toString(), number);
    }
}
