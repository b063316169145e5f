package io.hpcscale.scaler.match;

import java.util.List;

/** Equality as the library's property and resource constraints see it: strings as shell patterns, numbers by value. */
final class Values {
    private Values() {
    }

    static boolean anyEquals(List<Object> options, Object actual) {
        for (Object option : options) {
            if (equal(option, actual)) {
                return true;
            }
        }
        return false;
    }

    static boolean equal(Object wanted, Object actual) {
        if (wanted == null || actual == null) {
            return wanted == actual;
        }
        if (wanted instanceof String pattern && actual instanceof String value) {
            return Glob.matches(pattern, value);
        }
        if (wanted instanceof Boolean || actual instanceof Boolean) {
            return wanted.equals(actual);
        }
        if (wanted instanceof Number a && actual instanceof Number b) {
            return a.doubleValue() == b.doubleValue();
        }
        if (wanted instanceof Quantity a && actual instanceof Quantity b) {
            return a.compareTo(b) == 0;
        }
        return false;
    }
}
