package io.hpcscale.common.model;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Makes scheduler names safe as Cosmos DB ids. The service refuses {@code /} and {@code \} and ids over 1,023 bytes;
 * {@code ?} and {@code #} break the request URL; and an id holding {@code %} can be created but, in gateway mode, not
 * read, replaced or deleted (401). So each of {@code / \ ? # %} and the escape character {@code ~} itself becomes
 * {@code ~} and two hex digits: no id made here contains {@code %}, and two names never share an id.
 *
 * <p>A name whose id would exceed the limit keeps a readable head and ends in {@code ~~} and a digest of the whole
 * name ({@code ~~} never appears otherwise, as {@code ~} is always escaped). Documents keep the original name in a
 * field, so nothing reads the id back; documents an older version wrote with {@code %} escapes are still read by
 * their pool's queries, and the agent replaces them at its next cycle.
 */
public final class CosmosIds {
    /** Cosmos DB's limit on an id, in UTF-8 bytes. */
    public static final int MAX_BYTES = 1023;
    /** Room left for a document type's prefix ("power-", "agent-...-pbs") before the limit. */
    private static final int NAME_BYTES = 900;
    private static final int HEAD_CHARS = 200;

    private CosmosIds() {
    }

    public static String encode(String raw) {
        StringBuilder out = null;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            boolean escaped = c == '~' || c == '%' || c == '/' || c == '\\' || c == '?' || c == '#';
            if (escaped && out == null) {
                out = new StringBuilder(raw.length() + 8).append(raw, 0, i);
            }
            if (out != null) {
                if (escaped) {
                    out.append('~').append(HexFormat.of().withUpperCase().toHexDigits((byte) c));
                } else {
                    out.append(c);
                }
            }
        }
        String id = out == null ? raw : out.toString();
        return id.getBytes(StandardCharsets.UTF_8).length <= NAME_BYTES ? id : shortened(id, raw);
    }

    private static String shortened(String id, String raw) {
        int end = Math.min(HEAD_CHARS, id.length());
        if (Character.isHighSurrogate(id.charAt(end - 1))) {
            end--;
        }
        int escape = id.lastIndexOf('~', end - 1);
        if (escape >= 0 && escape > end - 3) {
            end = escape;
        }
        return id.substring(0, end) + "~~" + digest(raw);
    }

    private static String digest(String raw) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(raw.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }
}
