package io.hpcscale.common.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * A scheduler's output as it may arrive damaged: a fixture with a few bytes flipped, inserted, deleted or duplicated,
 * cut short, or with a hostile value spliced in (numbers no type holds, values of the wrong JSON type, invalid UTF-8).
 * Made from a {@link Random} rather than shrinkable parts: the point is many cheap inputs, and a failure names its
 * seed.
 */
public final class ByteMutations {
    /** Values that each break some naive reading: overflow, wrong type, broken escape, invalid UTF-8. */
    static final List<byte[]> HOSTILE = List.of(
            ascii("1e309"), ascii("-1e309"), ascii("99999999999999999999"), ascii("-9223372036854775809"),
            ascii("-1"), ascii("0"), ascii("NaN"), ascii("null"), ascii("true"), ascii("[]"), ascii("{}"),
            ascii("[[[[[["), ascii("}}}]]"), ascii("\"\""), ascii("\"\\u12\""), ascii("\\uZZZZ"), ascii("\\"),
            ascii("\"a\":"), ascii(","), ascii("|||"), ascii("\n"), ascii("\r\n"), ascii("\t"), ascii("\u0000"),
            ascii("2026-13-45T25:61:61"), ascii("4294967296"), ascii("0x7f"), ascii("0000000000012"),
            new byte[] {(byte) 0xC3, 0x28}, new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xED, (byte) 0xA0,
                (byte) 0x80}, new byte[] {(byte) 0xF0, 0x28, (byte) 0x8C, 0x28}, new byte[] {(byte) 0xE2, (byte) 0x82});

    private ByteMutations() {
    }

    /** One of the fixtures with one to four mutations. */
    public static Arbitrary<byte[]> of(List<byte[]> fixtures) {
        return Arbitraries.randomValue(random -> mutate(fixtures.get(random.nextInt(fixtures.size())), random));
    }

    static byte[] mutate(byte[] fixture, Random random) {
        byte[] text = fixture;
        int mutations = 1 + random.nextInt(4);
        for (int i = 0; i < mutations; i++) {
            text = once(text, random);
        }
        return text;
    }

    private static byte[] once(byte[] text, Random random) {
        int at = random.nextInt(text.length + 1);
        return switch (random.nextInt(7)) {
            case 0 -> flip(text, at, random);
            case 1 -> splice(text, at, at, randomBytes(1 + random.nextInt(8), random));
            case 2 -> splice(text, at, Math.min(text.length, at + 1 + random.nextInt(64)), new byte[0]);
            case 3 -> splice(text, at, text.length, new byte[0]);
            case 4 -> duplicate(text, at, random);
            case 5 -> splice(text, at, at, HOSTILE.get(random.nextInt(HOSTILE.size())));
            default -> replaceToken(text, at, HOSTILE.get(random.nextInt(HOSTILE.size())));
        };
    }

    private static byte[] flip(byte[] text, int at, Random random) {
        if (text.length == 0) {
            return text;
        }
        byte[] copy = text.clone();
        copy[Math.min(at, text.length - 1)] = (byte) random.nextInt(256);
        return copy;
    }

    private static byte[] duplicate(byte[] text, int at, Random random) {
        int end = Math.min(text.length, at + 1 + random.nextInt(256));
        byte[] region = Arrays.copyOfRange(text, at, end);
        int to = random.nextInt(text.length + 1);
        return splice(text, to, to, region);
    }

    /** Replaces the value-like run of bytes at {@code at} (up to the next delimiter) with {@code value}. */
    private static byte[] replaceToken(byte[] text, int at, byte[] value) {
        int end = at;
        while (end < text.length && !isDelimiter(text[end])) {
            end++;
        }
        return splice(text, at, end, value);
    }

    private static boolean isDelimiter(byte b) {
        return b == ',' || b == '}' || b == ']' || b == ':' || b == '|' || b == ' ' || b == '\n' || b == '"';
    }

    static byte[] splice(byte[] text, int from, int to, byte[] insert) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length - (to - from) + insert.length);
        out.write(text, 0, from);
        out.write(insert, 0, insert.length);
        out.write(text, to, text.length - to);
        return out.toByteArray();
    }

    private static byte[] randomBytes(int n, Random random) {
        byte[] bytes = new byte[n];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
