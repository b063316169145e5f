package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.sun.net.httpserver.Headers;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;

/** One request as the handlers see it: normalised path, decoded query, body, and the route's path groups. */
public final class ArmRequest {
    private final String method;
    private final String path;
    private final String rawQuery;
    private final Map<String, String> query;
    private final Headers headers;
    private final String body;
    private final String base;
    private Matcher match;
    private Fault.Outcome outcome;

    ArmRequest(String method, URI uri, Headers headers, String body, String base) {
        this.method = method.toUpperCase();
        this.path = normalisePath(uri);
        this.rawQuery = uri.getRawQuery() == null ? "" : uri.getRawQuery();
        this.query = parseQuery(rawQuery);
        this.headers = headers;
        this.body = body;
        this.base = base;
    }

    /**
     * The tags-at-scope call sends {@code //subscriptions/...}; the JDK server reads "subscriptions" as a host,
     * so the path is rebuilt from authority and path, and doubled slashes collapse.
     */
    static String normalisePath(URI uri) {
        String raw = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (uri.getScheme() == null && uri.getRawAuthority() != null) {
            raw = "/" + uri.getRawAuthority() + raw;
        }
        raw = raw.replaceAll("/{2,}", "/");
        if (raw.length() > 1 && raw.endsWith("/")) {
            raw = raw.substring(0, raw.length() - 1);
        }
        return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static Map<String, String> parseQuery(String raw) {
        Map<String, String> params = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        if (raw.isEmpty()) {
            return params;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.put(name, value);
        }
        return params;
    }

    public String method() {
        return method;
    }

    public String path() {
        return path;
    }

    public String rawQuery() {
        return rawQuery;
    }

    public Map<String, String> query() {
        return Collections.unmodifiableMap(query);
    }

    public String query(String name) {
        return query.get(name);
    }

    public String header(String name) {
        return headers.getFirst(name);
    }

    public String body() {
        return body;
    }

    /** The body as JSON; a missing node when there is no body, a 400 when it is not JSON. */
    public JsonNode json() {
        if (body == null || body.isBlank()) {
            return MissingNode.getInstance();
        }
        try {
            return Json.parse(body);
        } catch (JsonProcessingException e) {
            throw ArmException.badRequest("InvalidRequestContent",
                "The request content was invalid and could not be deserialized: " + e.getOriginalMessage(), null);
        }
    }

    /** The fake's own scheme, host and port, for absolute URLs in nextLink and operation headers. */
    public String base() {
        return base;
    }

    public String param(String group) {
        return match.group(group);
    }

    void match(Matcher matcher) {
        this.match = matcher;
    }

    /** What a fault asked the long-running operation this request starts to do; null for a normal one. */
    Fault.Outcome outcome() {
        return outcome;
    }

    void outcome(Fault.Outcome outcome) {
        this.outcome = outcome;
    }
}
