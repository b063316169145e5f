package io.hpcscale.scaler.plan;

/** Counts as people write them. */
public final class Words {
    private Words() {
    }

    /** "1 queued job", "3 queued jobs". */
    public static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
