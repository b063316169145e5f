package io.hpcscale.cloud.azure.fake;

import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One request shape the fake answers: method and full-path pattern (case-insensitive, with a {@code scope} group
 * naming the resource ARM authorizes against), its kind for the log, the RBAC action it needs, and its handler.
 */
record Route(String method, Pattern path, Function<ArmRequest, RequestKind> kind, String action, Handler handler) {

    @FunctionalInterface
    interface Handler {
        ArmResponse handle(ArmRequest request);
    }

    static Route of(String method, String regex, RequestKind kind, String action, Handler handler) {
        return new Route(method, Pattern.compile(regex, Pattern.CASE_INSENSITIVE), r -> kind, action, handler);
    }

    static Route of(String method, String regex, Function<ArmRequest, RequestKind> kind, String action,
                    Handler handler) {
        return new Route(method, Pattern.compile(regex, Pattern.CASE_INSENSITIVE), kind, action, handler);
    }
}
