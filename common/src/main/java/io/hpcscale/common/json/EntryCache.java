package io.hpcscale.common.json;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What each entry of a scheduler's output was parsed into at the last read, so that an entry printed exactly as then
 * is not parsed again: between two reads most jobs and nodes do not change, and parsing them is most of a read.
 * An entry is known by its name and a 64-bit hash of its text (a changed entry passes for unchanged with a chance of
 * one in 2^64); one whose parsing fails is not kept, so it is parsed, and fails, at every read.
 *
 * @param <T> what an entry is parsed into; never null
 */
public final class EntryCache<T> {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    /** Parses one entry's text. */
    @FunctionalInterface
    public interface Parser<T> {
        T parse(byte[] text, int offset, int length) throws IOException;
    }

    /** What one entry was parsed into, from which text, and the last read that saw it. */
    private static final class Known<T> {
        final long hash;
        final T value;
        long seenIn;

        Known(long hash, T value) {
            this.hash = hash;
            this.value = value;
        }
    }

    /** By the entry's name; an entry of an array has none, and is known by its text alone. */
    private final Map<Object, Known<T>> known = new HashMap<>();
    private Object meaning;
    private long read;

    /**
     * Begins a read.
     *
     * @param meaning what, beyond their own text, the entries' values depend on (a PBS job's state depends on its
     *                queue); when it differs from the last read's, every value is parsed anew
     */
    public void beginRead(Object meaning) {
        if (!Objects.equals(meaning, this.meaning)) {
            known.clear();
            this.meaning = meaning;
        }
        read++;
    }

    /** The entry's value: the one of the last read when its text is the same, or else what {@code parser} makes. */
    public T get(String name, byte[] text, int offset, int length, Parser<T> parser) throws IOException {
        long hash = hash(text, offset, length);
        Object key = name != null ? name : hash;
        Known<T> entry = known.get(key);
        if (entry == null || entry.hash != hash) {
            entry = new Known<>(hash, Objects.requireNonNull(parser.parse(text, offset, length), "parsed value"));
            known.put(key, entry);
        }
        entry.seenIn = read;
        return entry.value;
    }

    /** The read is complete: entries it did not see are forgotten. A read that failed does not end. */
    public void endRead() {
        known.values().removeIf(entry -> entry.seenIn != read);
    }

    /** A 64-bit hash in the manner of xxHash64, eight bytes at a time: a few gigabytes a second. */
    static long hash(byte[] text, int offset, int length) {
        long h = P5 + length;
        int i = offset;
        int end = offset + length;
        for (; i + 8 <= end; i += 8) {
            long k = (long) LONGS.get(text, i);
            k *= P2;
            k = Long.rotateLeft(k, 31);
            k *= P1;
            h ^= k;
            h = Long.rotateLeft(h, 27) * P1 + P4;
        }
        for (; i < end; i++) {
            h ^= (text[i] & 0xffL) * P5;
            h = Long.rotateLeft(h, 11) * P1;
        }
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }
}
