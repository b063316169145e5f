package io.hpcscale.cloud.azure;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.resourcemanager.authorization.fluent.models.PermissionInner;
import java.util.List;
import org.junit.jupiter.api.Test;

class GrantedActionsTest {
    private static PermissionInner role(List<String> actions, List<String> notActions) {
        return new PermissionInner().withActions(actions).withNotActions(notActions);
    }

    @Test
    void wildcardsStandForAnyTextAndCaseDoesNotMatter() {
        GrantedActions granted = GrantedActions.of(List.of(role(List.of("microsoft.compute/*/read"), List.of())));

        assertTrue(granted.permits("Microsoft.Compute/virtualMachineScaleSets/virtualMachines/read"));
        assertFalse(granted.permits("Microsoft.Compute/virtualMachineScaleSets/start/action"));
    }

    @Test
    void aRolesNotActionsTakeFromThatRoleOnlyNotFromAnothersGrant() {
        PermissionInner contributor = role(List.of("*"), List.of("Microsoft.Compute/*/deallocate/action"));
        PermissionInner operator = role(List.of("Microsoft.Compute/virtualMachineScaleSets/deallocate/action"),
                List.of());

        assertFalse(GrantedActions.of(List.of(contributor))
                .permits("Microsoft.Compute/virtualMachineScaleSets/deallocate/action"));
        assertTrue(GrantedActions.of(List.of(contributor, operator))
                .permits("Microsoft.Compute/virtualMachineScaleSets/deallocate/action"));
    }

    @Test
    void noRoleAtTheScopeAllowsNothing() {
        assertFalse(GrantedActions.of(List.of()).permits("Microsoft.Compute/virtualMachineScaleSets/read"));
    }
}
