package io.hpcscale.common.fuzz;

import io.hpcscale.common.fuzz.FuzzTally.Outcome;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The contract every scheduler-output parser is fuzzed against: for any input it returns what it could read, each
 * skipped entry named in exactly one warning, or throws its one "unreadable output" exception; nothing else.
 */
public final class ParserFuzz {
    /**
     * What a parser read from one input.
     *
     * @param entries the names or ids of the entries it read
     * @param skipped how many entries it skipped as unreadable
     */
    public record Read(Set<String> entries, int skipped) {
    }

    /** Runs the parser under test on one input. */
    @FunctionalInterface
    public interface Parser {
        Read read(byte[] output) throws Exception;
    }

    private final Parser parser;
    private final Class<? extends Exception> refusal;
    private final SkipLog log;

    /** @param refusal the exception the parser throws for output it cannot read as a whole */
    public ParserFuzz(Parser parser, Class<? extends Exception> refusal, SkipLog log) {
        this.parser = parser;
        this.refusal = refusal;
        this.log = log;
    }

    /** What the input came to; any exception other than the refusal escapes, as a crash. */
    public Outcome outcome(byte[] output) throws Exception {
        return outcome(readOrRefuse(output));
    }

    /**
     * One entry mutated in well-formed output: the output is not refused, and every entry read without the mutated
     * one is still read.
     */
    public Outcome keepsTheOthers(TreeMutations.Mutated mutated) throws Exception {
        Set<String> expected = parser.read(mutated.without()).entries();
        Read read = readOrRefuse(mutated.text());
        if (read == null) {
            throw new AssertionError("well-formed output with entry " + mutated.entry() + " mutated was refused");
        }
        Set<String> lost = new HashSet<>(expected);
        lost.removeAll(read.entries());
        if (!lost.isEmpty()) {
            throw new AssertionError("mutating entry " + mutated.entry() + " lost the untouched entries " + lost);
        }
        return outcome(read);
    }

    private static Outcome outcome(Read read) {
        return read == null ? Outcome.REFUSED : read.skipped() == 0 ? Outcome.READ : Outcome.SKIPPED;
    }

    /** What the parser read, checked against the warnings it logged; null when it refused the output. */
    private Read readOrRefuse(byte[] output) throws Exception {
        log.take();
        Read read;
        try {
            read = parser.read(output);
        } catch (Exception e) {
            if (refusal.isInstance(e)) {
                log.take();
                return null;
            }
            throw e;
        }
        List<String> warnings = log.take();
        if (warnings.size() != read.skipped()) {
            throw new AssertionError(read.skipped() + " entries were skipped but " + warnings.size()
                    + " warnings logged: " + warnings);
        }
        return read;
    }
}
