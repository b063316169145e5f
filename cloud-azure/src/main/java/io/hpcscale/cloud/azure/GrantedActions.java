package io.hpcscale.cloud.azure;

import com.azure.resourcemanager.authorization.fluent.models.PermissionInner;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What Azure's permissions probe ({@code GET {scope}/providers/Microsoft.Authorization/permissions}) says the
 * caller may do at one scope. Azure answers one entry per role that applies there; an action is allowed when one
 * entry's actions match it and that same entry's notActions do not (a role's notActions subtract from that role
 * only, never from another role's grant). Actions match case-insensitively, {@code *} standing for any text.
 */
final class GrantedActions {
    private record Grant(List<Pattern> actions, List<Pattern> notActions) {
        boolean permits(String action) {
            return actions.stream().anyMatch(a -> a.matcher(action).matches())
                    && notActions.stream().noneMatch(n -> n.matcher(action).matches());
        }
    }

    private final List<Grant> grants;

    private GrantedActions(List<Grant> grants) {
        this.grants = grants;
    }

    static GrantedActions of(Iterable<PermissionInner> permissions) {
        List<Grant> grants = new ArrayList<>();
        for (PermissionInner permission : permissions) {
            grants.add(new Grant(patterns(permission.actions()), patterns(permission.notActions())));
        }
        return new GrantedActions(grants);
    }

    boolean permits(String action) {
        return grants.stream().anyMatch(g -> g.permits(action));
    }

    private static List<Pattern> patterns(List<String> actions) {
        if (actions == null) {
            return List.of();
        }
        return actions.stream().map(a -> Pattern.compile(Pattern.quote(a).replace("*", "\\E.*\\Q"),
                Pattern.CASE_INSENSITIVE)).toList();
    }
}
