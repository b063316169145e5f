package io.hpcscale.common.fuzz;

/**
 * What a parser made of the inputs of one fuzz property, printed when the property ends as one line that
 * {@code scripts/fuzz} collects. A crash is counted and rethrown, so that it fails the property with its input.
 */
public final class FuzzTally {
    /** What one input came to. */
    public enum Outcome {
        /** Every entry was read. */
        READ,
        /** Read, with one or more entries skipped as unreadable. */
        SKIPPED,
        /** Refused as a whole with the parser's "unreadable output" exception. */
        REFUSED
    }

    /** Reads one input; throws only what the parser must never throw. */
    @FunctionalInterface
    public interface Attempt {
        Outcome run() throws Exception;
    }

    private final String parser;
    private long nanos;
    private long read;
    private long skipped;
    private long refused;
    private long crashes;

    public FuzzTally(String parser) {
        this.parser = parser;
    }

    public synchronized Outcome count(Attempt attempt) throws Exception {
        long start = System.nanoTime();
        Outcome outcome;
        try {
            outcome = attempt.run();
        } catch (Exception | Error e) {
            crashes++;
            throw e;
        } finally {
            nanos += System.nanoTime() - start;
        }
        switch (outcome) {
            case READ -> read++;
            case SKIPPED -> skipped++;
            case REFUSED -> refused++;
        }
        return outcome;
    }

    public synchronized String summary() {
        return String.format("fuzz %s: %d inputs, %d read whole, %d read with 1+ entries skipped, %d refused as "
                + "unreadable, %d crashes, %.1f s parsing", parser, read + skipped + refused + crashes, read, skipped,
                refused, crashes, nanos / 1e9);
    }

    /** Prints the summary for scripts/fuzz, once inputs were tried: a property that did not run says nothing. */
    public synchronized void print() {
        if (read + skipped + refused + crashes > 0) {
            System.out.println(summary());
        }
    }
}
