package io.hpcscale.cloud.azure.fake;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The request pipeline, in ARM's order: route, authenticate, injected fault, RBAC, Compute's throttling buckets,
 * handler; every request is logged with the status it got. Handlers run under the state lock so each sees one consistent subscription.
 */
final class ArmServer implements HttpHandler {
    private final Routes routes;
    private final ArmState state;
    private final ManagedIdentity identity;
    private final Permissions permissions;
    private final Faults faults;
    private final RequestLog log;
    private final ComputeBuckets buckets;
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile String base;

    ArmServer(Routes routes, ArmState state, ManagedIdentity identity, Permissions permissions, Faults faults,
              RequestLog log, ComputeBuckets buckets) {
        this.buckets = buckets;
        this.routes = routes;
        this.state = state;
        this.identity = identity;
        this.permissions = permissions;
        this.faults = faults;
        this.log = log;
    }

    void base(String base) {
        this.base = base;
    }

    /** Releases hung requests so the server can stop. */
    void close() {
        closed.countDown();
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            ArmRequest request = new ArmRequest(exchange.getRequestMethod(), exchange.getRequestURI(),
                exchange.getRequestHeaders(), body, base);
            Optional<Route> route = routes.find(request);
            int entry = log.begin(new RequestLog.Entry(Instant.now(), request.method(), request.path(),
                request.rawQuery(), 0, kind(route, request), body));
            ArmResponse response;
            try {
                Fault fault = faults.take(request.method(), request.path());
                if (fault instanceof Fault.Hang hang && !hold(hang)) {
                    log.finish(entry, -1);
                    return;
                }
                response = answer(request, route, fault);
            } catch (ArmException e) {
                response = ArmResponse.json(e.status(), e.body());
            } catch (RuntimeException e) {
                response = ArmResponse.json(500, ArmException.errorBody("InternalServerError",
                    "The fake failed: " + e, null));
            }
            log.finish(entry, response.status());
            write(exchange, response);
        }
    }

    private static RequestKind kind(Optional<Route> route, ArmRequest request) {
        try {
            return route.map(r -> r.kind().apply(request)).orElse(RequestKind.UNKNOWN);
        } catch (ArmException e) {
            return RequestKind.UNKNOWN;
        }
    }

    private ArmResponse answer(ArmRequest request, Optional<Route> route, Fault fault) {
        if (route.isEmpty()) {
            // 501 is not retried by the SDK, so a missing route fails fast and plainly.
            return ArmResponse.json(501, ArmException.errorBody("FakeArmNotImplemented",
                "The fake ARM has no route for " + request.method() + " " + request.path(), null));
        }
        Route r = route.get();
        if (r.kind().apply(request) == RequestKind.TOKEN) {
            return fault instanceof Fault.Reply reply ? reply(reply) : r.handler().handle(request);
        }
        identity.authenticate(request);
        if (fault instanceof Fault.Reply reply) {
            return reply(reply);
        }
        if (fault instanceof Fault.Outcome outcome) {
            request.outcome(outcome);
        }
        checkSubscription(request);
        synchronized (state) {
            permissions.check(r.action(), scope(request));
            String remaining;
            try {
                remaining = buckets.spend(r.kind().apply(request), groupOrNull(request, "op"));
            } catch (ComputeBuckets.Refused refused) {
                return refused.response();
            }
            state.tick();
            ArmResponse response = r.handler().handle(request);
            return remaining == null ? response : response.header("x-ms-ratelimit-remaining-resource", remaining);
        }
    }

    private void checkSubscription(ArmRequest request) {
        String subscription = groupOrNull(request, "sub");
        if (subscription != null && !subscription.equalsIgnoreCase(state.subscriptionId())) {
            throw new ArmException(404, "SubscriptionNotFound",
                "The subscription '" + subscription + "' could not be found.");
        }
    }

    private static String scope(ArmRequest request) {
        String scope = groupOrNull(request, "scope");
        return scope == null ? request.path() : scope;
    }

    private static String groupOrNull(ArmRequest request, String group) {
        try {
            return request.param(group);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** True if the request should go on; false if the server closed while it was held. */
    private boolean hold(Fault.Hang hang) {
        try {
            return !closed.await(hang.duration().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static ArmResponse reply(Fault.Reply reply) {
        ArmResponse response = ArmResponse.json(reply.status(), reply.body().deepCopy());
        reply.headers().forEach(response::header);
        return response;
    }

    private static void write(HttpExchange exchange, ArmResponse response) throws IOException {
        byte[] bytes = response.body() == null ? new byte[0]
            : Json.write(response.body()).getBytes(StandardCharsets.UTF_8);
        for (Map.Entry<String, String> header : response.headers().entrySet()) {
            exchange.getResponseHeaders().add(header.getKey(), header.getValue());
        }
        String requestId = UUID.randomUUID().toString();
        exchange.getResponseHeaders().add("x-ms-request-id", requestId);
        exchange.getResponseHeaders().add("x-ms-correlation-request-id", requestId);
        if (bytes.length > 0) {
            exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
        }
        try {
            exchange.sendResponseHeaders(response.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        } catch (IOException e) {
            // The client gave up (a timeout after a hang): nothing left to tell it.
        }
    }
}
