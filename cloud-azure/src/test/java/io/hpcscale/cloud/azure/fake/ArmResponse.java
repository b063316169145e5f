package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/** A reply before it is written: status, headers, and a JSON body or none. */
public record ArmResponse(int status, Map<String, String> headers, JsonNode body) {

    static ArmResponse json(int status, JsonNode body) {
        return new ArmResponse(status, new LinkedHashMap<>(), body);
    }

    static ArmResponse ok(JsonNode body) {
        return json(200, body);
    }

    static ArmResponse empty(int status) {
        return new ArmResponse(status, new LinkedHashMap<>(), null);
    }

    ArmResponse header(String name, String value) {
        headers.put(name, value);
        return this;
    }
}
