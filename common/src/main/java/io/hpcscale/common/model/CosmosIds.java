package io.hpcscale.common.model;

/**
 * Makes scheduler names safe as Cosmos DB ids, which may not contain {@code / \ ? #}. The encoding is reversible
 * (percent-style escapes, with {@code %} itself escaped), and documents also keep the original name in a field.
 */
public final class CosmosIds {
    private CosmosIds() {
    }

    public static String encode(String raw) {
        StringBuilder out = null;
        for (int i = 0; i < raw.length(); i++) {
            String escape = escapeOf(raw.charAt(i));
            if (escape != null && out == null) {
                out = new StringBuilder(raw.length() + 8).append(raw, 0, i);
            }
            if (out != null) {
                if (escape != null) {
                    out.append(escape);
                } else {
                    out.append(raw.charAt(i));
                }
            }
        }
        return out == null ? raw : out.toString();
    }

    public static String decode(String id) {
        if (id.indexOf('%') < 0) {
            return id;
        }
        StringBuilder out = new StringBuilder(id.length());
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c == '%' && i + 2 < id.length()) {
                out.append((char) Integer.parseInt(id.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String escapeOf(char c) {
        return switch (c) {
            case '%' -> "%25";
            case '/' -> "%2F";
            case '\\' -> "%5C";
            case '?' -> "%3F";
            case '#' -> "%23";
            default -> null;
        };
    }
}
