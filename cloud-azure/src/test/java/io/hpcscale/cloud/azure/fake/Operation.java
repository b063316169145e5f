package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * A long-running operation as the Azure-AsyncOperation URL reports it: InProgress until {@code doneAt} on the
 * fake's clock, then its final status. Its effect on the scale set was applied when it was accepted.
 */
public record Operation(String id, String location, Instant startedAt, Instant doneAt, String finalStatus,
                        String errorCode, String errorMessage, String outerCode) {

    public String status(Instant now) {
        return now.isBefore(doneAt) ? "InProgress" : finalStatus;
    }

    public boolean isDone(Instant now) {
        return !now.isBefore(doneAt);
    }

    ObjectNode toJson(Instant now) {
        String status = status(now);
        ObjectNode body = Json.object()
            .put("startTime", startedAt.toString())
            .put("status", status)
            .put("name", id);
        if (!"InProgress".equals(status)) {
            body.put("endTime", doneAt.toString());
        }
        if (("Failed".equals(status) || "Canceled".equals(status)) && outerCode == null) {
            body.putObject("error").put("code", errorCode).put("message", errorMessage);
        } else if ("Failed".equals(status) || "Canceled".equals(status)) {
            ObjectNode error = body.putObject("error").put("code", outerCode)
                .put("message", "The operation could not be completed. See details.");
            error.putArray("details").addObject().put("code", errorCode).put("message", errorMessage);
        }
        return body;
    }
}
