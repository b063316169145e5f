package io.hpcscale.common.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte sizes in settings: {@code 512MB}, {@code 2GB}, {@code 65536}; units are binary (1KB = 1024 bytes). */
public final class Sizes {
    private static final Pattern FORM = Pattern.compile("(\\d{1,15})\\s*(b|kb|mb|gb)?");

    private Sizes() {
    }

    public static long parse(String text) {
        Matcher m = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size");
        }
        long amount = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "b" : m.group(2);
        long factor = switch (unit) {
            case "kb" -> 1L << 10;
            case "mb" -> 1L << 20;
            case "gb" -> 1L << 30;
            default -> 1L;
        };
        return Math.multiplyExact(amount, factor);
    }
}
