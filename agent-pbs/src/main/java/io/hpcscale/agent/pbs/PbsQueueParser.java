package io.hpcscale.agent.pbs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.hpcscale.common.agent.QueueLimit;
import io.hpcscale.common.json.LenientJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** One queue of {@code qstat -Q -f -F json}. */
final class PbsQueueParser {
    private static final JsonMapper JSON = LenientJson.mapper();

    /** @throws IOException the entry is not JSON even leniently read */
    PbsQueue parse(String name, byte[] text, int offset, int length) throws IOException {
        JsonNode queue = JSON.readTree(JSON.createParser(text, offset, length));
        if (queue == null || !queue.isObject()) {
            throw new IllegalArgumentException("the entry is not an object");
        }
        List<String> problems = new ArrayList<>();
        List<QueueLimit> limits = PbsLimits.of(queue, problems);
        return new PbsQueue(name, "false".equalsIgnoreCase(queue.path("started").asText()),
                queue.path("total_jobs").asText("?"), queue.path("state_count").asText("?").strip()
                        .replaceAll("\\s+", " "), limits, problems);
    }
}
