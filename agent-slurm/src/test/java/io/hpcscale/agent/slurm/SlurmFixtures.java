package io.hpcscale.agent.slurm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Slurm 22.05 outputs captured from a real cluster, in test resources. */
final class SlurmFixtures {
    static final String STEADY = "final/%s_t1-steady-running-pending-held";
    static final String DRAINING = "final/%s_t2-draining-node4-cnode3";
    /** The squeue -o format of the captured extended outputs. */
    static final String SQUEUE_EXTENDED = "%A|%i|%F|%K|%P|%j|%u|%T|%D|%C|%m|%b|%f|%r|%N|%V|%S|%l|%Q";
    /** The sinfo -N -o format of the captured extended outputs. */
    static final String SINFO_EXTENDED = "%N|%R|%T|%t|%c|%C|%m|%e|%O|%f|%E|%H";

    private SlurmFixtures() {
    }

    static String text(String name) {
        try (InputStream in = SlurmFixtures.class.getResourceAsStream("/fixtures/slurm/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String moment(String pattern, String command, String extension) {
        return text(String.format(pattern, command) + extension);
    }
}
