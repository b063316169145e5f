package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the caller's role assignments allow, as Azure RBAC actions with {@code *} wildcards. The same list drives
 * the 403s and the answer to the permissions probe, so a {@code check} command and the real calls agree.
 */
public final class Permissions {
    private final List<String> actions = new ArrayList<>(List.of("*"));
    private final List<String> notActions = new ArrayList<>();
    private final String principalId;

    Permissions(String principalId) {
        this.principalId = principalId;
    }

    /** Replace the allowed actions, e.g. a custom role with only what the autoscaler needs. */
    public synchronized Permissions allowOnly(String... allowed) {
        actions.clear();
        actions.addAll(List.of(allowed));
        return this;
    }

    /** Add NotActions: these are refused even where an action wildcard covers them. */
    public synchronized Permissions deny(String... denied) {
        notActions.addAll(List.of(denied));
        return this;
    }

    public synchronized void reset() {
        actions.clear();
        actions.add("*");
        notActions.clear();
    }

    synchronized boolean permits(String action) {
        return actions.stream().anyMatch(a -> matches(a, action))
            && notActions.stream().noneMatch(a -> matches(a, action));
    }

    /** 403 worded as ARM words it, naming the principal, the action and the scope. */
    void check(String action, String scope) {
        if (action != null && !permits(action)) {
            throw new ArmException(403, "AuthorizationFailed", "The client '" + principalId + "' with object id '"
                + principalId + "' does not have authorization to perform action '" + action + "' over scope '"
                + scope + "' or the scope is invalid. If access was recently granted, please refresh your"
                + " credentials.");
        }
    }

    /** The body of {@code GET .../providers/Microsoft.Authorization/permissions}. */
    synchronized ObjectNode toJson() {
        ObjectNode permission = Json.object();
        ArrayNode allowed = permission.putArray("actions");
        actions.forEach(allowed::add);
        ArrayNode denied = permission.putArray("notActions");
        notActions.forEach(denied::add);
        permission.putArray("dataActions");
        permission.putArray("notDataActions");
        ObjectNode body = Json.object();
        body.putArray("value").add(permission);
        return body;
    }

    private static boolean matches(String pattern, String action) {
        String regex = Pattern.quote(pattern).replace("*", "\\E.*\\Q");
        return Pattern.compile(regex, Pattern.CASE_INSENSITIVE).matcher(action).matches();
    }
}
