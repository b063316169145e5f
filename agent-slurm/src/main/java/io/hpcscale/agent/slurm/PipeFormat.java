package io.hpcscale.agent.slurm;

import java.util.HashMap;
import java.util.Map;

/**
 * A pipe-separated squeue or sinfo {@code -o} format such as {@code %i|%P|%T|%D}: which field holds which code.
 * The last field takes the rest of the line, so a free text there (a node's reason) may itself contain a pipe.
 */
final class PipeFormat {
    private final String format;
    private final Map<String, Integer> indexByCode = new HashMap<>();
    private final int fields;

    PipeFormat(String format) {
        this.format = format;
        String[] codes = format.split("\\|");
        for (int i = 0; i < codes.length; i++) {
            indexByCode.put(codes[i].strip(), i);
        }
        this.fields = codes.length;
    }

    String format() {
        return format;
    }

    /** The line's fields by code; throws when the line has too few. */
    Line parse(String line) {
        String[] values = line.split("\\|", fields);
        if (values.length != fields) {
            throw new IllegalArgumentException("expected " + fields + " fields (" + format + ") but found "
                    + values.length);
        }
        return new Line(values);
    }

    /** One line, read by format code. */
    final class Line {
        private final String[] values;

        private Line(String[] values) {
            this.values = values;
        }

        boolean has(String code) {
            return indexByCode.containsKey(code);
        }

        /** The field, or null when the format lacks it or Slurm printed N/A or (null). */
        String get(String code) {
            Integer index = indexByCode.get(code);
            if (index == null) {
                return null;
            }
            String value = values[index].strip();
            return value.isEmpty() || value.equals("N/A") || value.equals("(null)") ? null : value;
        }

        int integer(String code, int fallback) {
            String value = get(code);
            if (value == null) {
                return fallback;
            }
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(code + " is '" + value + "', not a number");
            }
        }
    }
}
