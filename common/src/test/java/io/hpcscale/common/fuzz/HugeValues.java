package io.hpcscale.common.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Values far beyond anything a scheduler prints, to show they cost a bounded amount of memory. */
public final class HugeValues {
    private HugeValues() {
    }

    /** A JSON string of {@code bytes} letters, quotes included. */
    public static String string(int bytes) {
        byte[] text = new byte[bytes];
        Arrays.fill(text, (byte) 'x');
        text[0] = '"';
        text[bytes - 1] = '"';
        return new String(text, StandardCharsets.ISO_8859_1);
    }

    /** Arrays nested {@code depth} levels deep: {@code [[[...]]]}. */
    public static String nestedArrays(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }
}
