package io.hpcscale.agent.pbs;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PBS "size" values ({@code mem=32gb}, {@code 65842092kb}): an integer with an optional unit b, kb, mb, gb, tb, pb
 * or words (w, kw, ...; 8 bytes a word); no unit means bytes. Units are binary, as PBS uses them.
 */
final class PbsSize {
    private static final Pattern FORM = Pattern.compile("(\\d+)\\s*([kmgtp]?)([bw]?)");
    private static final long MIB = 1L << 20;

    private PbsSize() {
    }

    /** The size in MiB, rounded up; a value that is not a size throws. */
    static long toMebibytes(String text) {
        Matcher m = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches() || (!m.group(2).isEmpty() && m.group(3).isEmpty())) {
            throw new IllegalArgumentException("'" + text + "' is not a PBS size (like 32gb or 65842092kb)");
        }
        long amount = Long.parseLong(m.group(1));
        int shift = switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            case "p" -> 50;
            default -> 0;
        };
        long unitBytes = (1L << shift) * ("w".equals(m.group(3)) ? 8 : 1);
        if (unitBytes >= MIB) {
            return Math.multiplyExact(amount, unitBytes / MIB);
        }
        long perMib = MIB / unitBytes;
        return (amount + perMib - 1) / perMib;
    }
}
