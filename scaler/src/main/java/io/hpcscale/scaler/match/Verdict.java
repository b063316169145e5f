package io.hpcscale.scaler.match;

import java.util.List;

/**
 * Whether a pool's node satisfies a constraint and, if not, why, in the library's words
 * ({@code Resource[name=ncpus value=4] > Node[...]}).
 *
 * @param status the library's status word for a failure ({@code InsufficientResource}, {@code InvalidOption},
 *               {@code Never} ...), {@code success} when satisfied
 */
public record Verdict(boolean satisfied, String status, List<String> reasons) {
    public static final Verdict SUCCESS = new Verdict(true, "success", List.of());

    public Verdict {
        reasons = List.copyOf(reasons);
    }

    public static Verdict failed(String status, String reason) {
        return new Verdict(false, status, List.of(reason));
    }

    /** The reasons as one line. */
    public String why() {
        return String.join("; ", reasons);
    }
}
