package io.hpcscale.agent.slurm;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** GRES strings and memory sizes as Slurm prints them. */
final class SlurmResources {
    private static final Pattern GPU = Pattern.compile("(?:gres[:/])?gpu(?::[^:(,]+)?:(\\d+)");
    private static final Pattern MEMORY = Pattern.compile("(\\d+)([KMGT]?)");

    private SlurmResources() {
    }

    /**
     * GPUs in a GRES or TRES list: {@code gpu:2}, {@code gpu:a100:4(S:0-1)}, {@code gres:gpu:2},
     * {@code gres/gpu:2,mps:100}; 0 for {@code N/A}, {@code (null)} or an empty list.
     */
    static int gpus(String gres) {
        if (gres == null || gres.isBlank()) {
            return 0;
        }
        int total = 0;
        for (String entry : gres.split(",")) {
            Matcher m = GPU.matcher(entry.strip());
            if (m.lookingAt()) {
                total += Integer.parseInt(m.group(1));
            }
        }
        return total;
    }

    /** A memory size in MB: {@code 500M}, {@code 4G}, {@code 1T}, {@code 2000} (MB). */
    static long megabytes(String text) {
        Matcher m = MEMORY.matcher(text.strip().toUpperCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a memory size");
        }
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "K" -> (amount + 1023) / 1024;
            case "G" -> amount * 1024;
            case "T" -> amount * 1024 * 1024;
            default -> amount;
        };
    }
}
