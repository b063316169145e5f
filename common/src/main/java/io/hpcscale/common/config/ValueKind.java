package io.hpcscale.common.config;

/** What a setting's value must look like; {@link #expected()} is the phrase used in error messages. */
public enum ValueKind {
    DURATION("a duration like 90s, 5m or 2h (units ms, s, m, h, d)"),
    INTEGER("a whole number"),
    BOOLEAN("true or false"),
    STRING("a text"),
    PATH("a file path"),
    REGEX("a Java regular expression"),
    SIZE("a size like 512MB, 2GB or 65536 (bytes; units KB, MB, GB)"),
    DECIMAL("a number like 3.6 or 0.25, not negative"),
    CHOICE("one of the listed values");

    private final String expected;

    ValueKind(String expected) {
        this.expected = expected;
    }

    public String expected() {
        return expected;
    }
}
