package io.hpcscale.scaler.match;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An amount of memory or storage in bytes, written as the constraint language writes it: {@code memory::4g},
 * {@code size::100G}, or {@code 4g} where a quantity is expected. As in CycleCloud's library (hpctypes.py), lower-case
 * magnitudes b, k, m, g, t, p are powers of 1024 and upper-case K, M, G, T, P powers of 1000; a number without a
 * magnitude is bytes, and any other suffix (such as {@code gb}) is refused rather than guessed.
 */
public record Quantity(double bytes) implements Comparable<Quantity> {
    private static final Pattern TEXT = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)([A-Za-z]*)");
    private static final Map<String, Double> MAGNITUDES = Map.ofEntries(
            Map.entry("b", 1.0), Map.entry("k", 1024.0), Map.entry("m", 1024.0 * 1024),
            Map.entry("g", Math.pow(1024, 3)), Map.entry("t", Math.pow(1024, 4)), Map.entry("p", Math.pow(1024, 5)),
            Map.entry("B", 1.0), Map.entry("K", 1e3), Map.entry("M", 1e6), Map.entry("G", 1e9),
            Map.entry("T", 1e12), Map.entry("P", 1e15));
    /** The library compares sizes with this tolerance, so that memory::4096m equals memory::4g. */
    private static final double TOLERANCE = 1e-10;

    public static final String MEMORY_PREFIX = "memory::";
    public static final String SIZE_PREFIX = "size::";

    public static Quantity ofMib(long mib) {
        return new Quantity(mib * 1024.0 * 1024.0);
    }

    /** Whether a constraint's string value is a quantity ({@code memory::…} or {@code size::…}). */
    public static boolean isQuantity(String text) {
        return text.startsWith(MEMORY_PREFIX) || text.startsWith(SIZE_PREFIX);
    }

    /** @throws IllegalArgumentException naming what is wrong with the text */
    public static Quantity parse(String text) {
        String value = text.substring(text.lastIndexOf(':') + 1).strip();
        Matcher m = TEXT.matcher(value);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a quantity: write a number and a magnitude, "
                    + "e.g. memory::4g (1024-based: b k m g t p) or memory::4G (1000-based: B K M G T P)");
        }
        String unit = m.group(2);
        Double factor = unit.isEmpty() ? Double.valueOf(1.0) : MAGNITUDES.get(unit);
        if (factor == null) {
            throw new IllegalArgumentException("'" + text + "' has the magnitude '" + unit + "', which is not one of "
                    + "b k m g t p (1024-based) or B K M G T P (1000-based): write e.g. 4g, not 4gb");
        }
        return new Quantity(Double.parseDouble(m.group(1)) * factor);
    }

    public boolean atLeast(double otherBytes) {
        return bytes >= otherBytes - TOLERANCE;
    }

    @Override
    public int compareTo(Quantity other) {
        return Math.abs(bytes - other.bytes) <= TOLERANCE ? 0 : Double.compare(bytes, other.bytes);
    }

    /** As the library prints memory: gibibytes with two decimals, {@code 15.20g}. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.2fg", bytes / Math.pow(1024, 3));
    }
}
