package io.hpcscale.scaler.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;

/**
 * The queue order's id comparison against a plain statement of what it means (the ids cut into runs of digits and of
 * anything else, digit runs compared by their value, others as text, then the shorter rest first), and the laws a
 * sort needs of it.
 */
class JobIdOrderLawsTest {

    @Property(tries = 3000)
    void comparesIdsAsTheirRunsSay(@ForAll @StringLength(max = 12) @Chars({'0', '1', '2', '9', '_', '.', 'a', '['})
            String a, @ForAll @StringLength(max = 12) @Chars({'0', '1', '2', '9', '_', '.', 'a', '['}) String b) {
        assertEquals(Integer.signum(byRuns(a, b)), Integer.signum(BackfillForecast.compareIds(a, b)), a + " vs " + b);
    }

    @Property(tries = 2000)
    void isAnOrderAntisymmetricTransitiveAndItsTiesInterchangeable(
            @ForAll @StringLength(max = 8) @Chars({'0', '1', '9', '_', 'a', '\u0661'}) String x,
            @ForAll @StringLength(max = 8) @Chars({'0', '1', '9', '_', 'a', '\u0661'}) String y,
            @ForAll @StringLength(max = 8) @Chars({'0', '1', '9', '_', 'a', '\u0661'}) String z) {
        assertEquals(Integer.signum(BackfillForecast.compareIds(x, y)),
                -Integer.signum(BackfillForecast.compareIds(y, x)), x + " vs " + y);
        if (BackfillForecast.compareIds(x, y) <= 0 && BackfillForecast.compareIds(y, z) <= 0) {
            assertTrue(BackfillForecast.compareIds(x, z) <= 0, x + " <= " + y + " <= " + z);
        }
        if (BackfillForecast.compareIds(x, y) == 0) {
            assertEquals(Integer.signum(BackfillForecast.compareIds(x, z)),
                    Integer.signum(BackfillForecast.compareIds(y, z)), x + " ~ " + y + " against " + z);
        }
    }

    private static int byRuns(String a, String b) {
        List<String> runsA = runs(a);
        List<String> runsB = runs(b);
        int lengthA = 0;
        int lengthB = 0;
        for (int k = 0; k < Math.min(runsA.size(), runsB.size()); k++) {
            String x = runsA.get(k);
            String y = runsB.get(k);
            int order = Character.isDigit(x.charAt(0)) && Character.isDigit(y.charAt(0))
                    ? new BigInteger(x).compareTo(new BigInteger(y)) : x.compareTo(y);
            if (order != 0) {
                return order;
            }
            lengthA += x.length();
            lengthB += y.length();
        }
        return Integer.compare(a.length() - lengthA, b.length() - lengthB);
    }

    private static List<String> runs(String text) {
        List<String> runs = new ArrayList<>();
        int from = 0;
        while (from < text.length()) {
            boolean digits = Character.isDigit(text.charAt(from));
            int end = from;
            while (end < text.length() && Character.isDigit(text.charAt(end)) == digits) {
                end++;
            }
            runs.add(text.substring(from, end));
            from = end;
        }
        return runs;
    }
}
