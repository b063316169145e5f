package io.hpcscale.agent.pbs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The PBS outputs in test resources. */
final class Fixtures {
    static final String CLOUD_JOBS = "qstat_f_t_F_json.cloud.json";
    static final String CLOUD_QUEUES = "qstat_Q_f_F_json.cloud.json";
    static final String NODES = "pbsnodes_a_F_json.json";
    static final String HISTORY_JOBS = "qstat_x_f_F_json.json";
    static final String SITE_QUEUES = "qstat_Q_f_F_json.json";
    static final String MALFORMED_JOBS = "qstat_f_F_json.malformed-numbers.txt";

    private Fixtures() {
    }

    static byte[] bytes(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/pbs/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(String name) {
        return new String(bytes(name), java.nio.charset.StandardCharsets.UTF_8);
    }
}
