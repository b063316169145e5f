package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * ARM list pages: {@code value} plus an absolute {@code nextLink} that repeats the request's own query (the SDK
 * follows it verbatim, api-version and filter included) with a {@code $skiptoken}.
 */
final class Paging {
    private static final String SKIP_TOKEN = "$skiptoken";

    private Paging() {
    }

    static ObjectNode page(List<? extends JsonNode> all, ArmRequest request, int pageSize) {
        return page(all, request, pageSize, true);
    }

    /**
     * @param encoded false to send the next link with its query decoded (raw spaces and quotes), as Flexible
     *                listings have been seen to (see {@link Settings#flexibleNextLinkEncoded})
     */
    static ObjectNode page(List<? extends JsonNode> all, ArmRequest request, int pageSize, boolean encoded) {
        int offset = offset(request);
        int end = Math.min(all.size(), offset + pageSize);
        ObjectNode body = Json.object();
        body.putArray("value").addAll(all.subList(Math.min(offset, all.size()), end));
        if (end < all.size()) {
            String query = queryWithSkipToken(request, end);
            body.put("nextLink", request.base() + request.path() + "?"
                + (encoded ? query : URLDecoder.decode(query, StandardCharsets.UTF_8)));
        }
        return body;
    }

    private static int offset(ArmRequest request) {
        String token = request.query(SKIP_TOKEN);
        if (token == null) {
            return 0;
        }
        try {
            return Integer.parseInt(token);
        } catch (NumberFormatException e) {
            throw ArmException.badRequest("InvalidSkipToken", "The skip token '" + token + "' is not valid.",
                SKIP_TOKEN);
        }
    }

    private static String queryWithSkipToken(ArmRequest request, int offset) {
        List<String> kept = new ArrayList<>();
        for (String pair : request.rawQuery().split("&")) {
            String name = pair.contains("=") ? pair.substring(0, pair.indexOf('=')) : pair;
            if (!pair.isEmpty() && !name.equalsIgnoreCase(SKIP_TOKEN) && !name.equalsIgnoreCase("%24skiptoken")) {
                kept.add(pair);
            }
        }
        kept.add(SKIP_TOKEN + "=" + offset);
        return String.join("&", kept);
    }
}
