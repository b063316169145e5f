package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;

/** The table of every request the fake answers, written as the SDK sends them. */
final class Routes {
    private static final String SUB = "/subscriptions/(?<sub>[^/]+)";
    private static final String RG = SUB + "/resourceGroups/(?<rg>[^/]+)";
    private static final String VMSS = RG + "/providers/Microsoft\\.Compute/virtualMachineScaleSets/(?<vmss>[^/]+)";
    private static final String VM = RG + "/providers/Microsoft\\.Compute/virtualMachines/(?<vm>[^/]+)";
    private static final String INSTANCE = "/virtualMachines/(?<id>[^/]+)";
    /** The deployments API spells it "resourcegroups". */
    private static final String DEPLOYMENT = SUB + "/(?i:resourceGroups)/(?<rg>[^/]+)"
        + "/providers/Microsoft\\.Resources/deployments/(?<name>[^/]+)";
    private static final String COMPUTE = "Microsoft.Compute/";
    private static final String STANDBY_POOL = RG
        + "/providers/Microsoft\\.StandbyPool/standbyVirtualMachinePools/(?<name>[^/]+)";

    private final List<Route> routes;

    Routes(ScaleSetHandlers scaleSets, UniformHandlers uniform, FlexibleHandlers flexible,
           ResourceHandlers resources, OperationHandlers operations, ManagedIdentity identity,
           DeploymentHandlers deployments, StandbyPoolHandlers standbyPools) {
        routes = List.of(
            Route.of("PUT", scope(DEPLOYMENT), RequestKind.DEPLOY, "Microsoft.Resources/deployments/write",
                deployments::put),
            Route.of("GET", scope(DEPLOYMENT), RequestKind.GET, "Microsoft.Resources/deployments/read",
                deployments::get),
            Route.of("POST", scope(DEPLOYMENT) + "/validate", RequestKind.VALIDATE,
                "Microsoft.Resources/deployments/validate/action", deployments::validate),
            Route.of("GET", ManagedIdentity.PATH, RequestKind.TOKEN, null, identity::token),
            Route.of("GET", SUB + "/providers/Microsoft\\.Compute/locations/[^/]+/operations/(?<op>[^/]+)",
                r -> "true".equalsIgnoreCase(r.query("monitor"))
                    ? RequestKind.OPERATION_RESULT : RequestKind.OPERATION_POLL, null, operations::status),
            Route.of("GET", SUB + "/providers/Microsoft\\.StandbyPool/locations/[^/]+/operationStatuses/(?<op>[^/]+)",
                RequestKind.OPERATION_POLL, null, operations::status),
            Route.of("GET", scope(STANDBY_POOL), RequestKind.GET,
                "Microsoft.StandbyPool/standbyVirtualMachinePools/read", standbyPools::get),
            Route.of("POST", scope(SUB) + "/providers/Microsoft\\.StandbyPool/register", RequestKind.REGISTER,
                "Microsoft.StandbyPool/register/action", standbyPools::register),
            // Who may read a provider's registration is not checked here.
            Route.of("GET", SUB + "/providers/Microsoft\\.StandbyPool", RequestKind.GET, null,
                standbyPools::provider),
            Route.of("GET", scope(STANDBY_POOL) + "/runtimeViews/latest", RequestKind.GET,
                "Microsoft.StandbyPool/standbyVirtualMachinePools/runtimeViews/read", standbyPools::runtimeView),
            Route.of("PUT", scope(STANDBY_POOL), RequestKind.PUT,
                "Microsoft.StandbyPool/standbyVirtualMachinePools/write", standbyPools::put),

            Route.of("GET", scope(RG) + "/providers/Microsoft\\.Compute/virtualMachineScaleSets",
                RequestKind.LIST_SCALE_SETS, COMPUTE + "virtualMachineScaleSets/read", scaleSets::list),
            Route.of("GET", scope(VMSS), RequestKind.GET, COMPUTE + "virtualMachineScaleSets/read", scaleSets::get),
            Route.of("PUT", scope(VMSS), RequestKind.PUT, COMPUTE + "virtualMachineScaleSets/write",
                scaleSets::put),
            Route.of("PATCH", scope(VMSS), Routes::patchKind, COMPUTE + "virtualMachineScaleSets/write",
                scaleSets::patch),
            Route.of("DELETE", scope(VMSS), RequestKind.DELETE_SCALE_SET,
                COMPUTE + "virtualMachineScaleSets/delete", scaleSets::delete),

            Route.of("GET", scope(VMSS) + "/virtualMachines", RequestKind.LIST,
                COMPUTE + "virtualMachineScaleSets/virtualMachines/read", uniform::list),
            Route.of("GET", scope(VMSS) + INSTANCE, RequestKind.GET_INSTANCE,
                COMPUTE + "virtualMachineScaleSets/virtualMachines/read", uniform::get),
            Route.of("GET", scope(VMSS) + INSTANCE + "/instanceView", RequestKind.GET_INSTANCE,
                COMPUTE + "virtualMachineScaleSets/virtualMachines/read", uniform::instanceView),
            Route.of("GET", scope(VMSS) + "/instanceView", RequestKind.GET,
                COMPUTE + "virtualMachineScaleSets/read", uniform::scaleSetInstanceView),
            Route.of("POST", scope(VMSS) + "/start", RequestKind.START,
                COMPUTE + "virtualMachineScaleSets/start/action", r -> uniform.batch(r, PowerAction.START)),
            Route.of("POST", scope(VMSS) + "/deallocate", RequestKind.DEALLOCATE,
                COMPUTE + "virtualMachineScaleSets/deallocate/action",
                r -> uniform.batch(r, PowerAction.DEALLOCATE)),
            Route.of("POST", scope(VMSS) + "/powerOff", RequestKind.POWEROFF,
                COMPUTE + "virtualMachineScaleSets/powerOff/action", r -> uniform.batch(r, PowerAction.POWER_OFF)),
            Route.of("POST", scope(VMSS) + "/delete", RequestKind.DELETE,
                COMPUTE + "virtualMachineScaleSets/delete/action", r -> uniform.batch(r, PowerAction.DELETE)),
            Route.of("POST", scope(VMSS) + INSTANCE + "/start", RequestKind.START,
                COMPUTE + "virtualMachineScaleSets/virtualMachines/start/action",
                r -> uniform.single(r, PowerAction.START)),
            Route.of("POST", scope(VMSS) + INSTANCE + "/deallocate", RequestKind.DEALLOCATE,
                COMPUTE + "virtualMachineScaleSets/virtualMachines/deallocate/action",
                r -> uniform.single(r, PowerAction.DEALLOCATE)),
            Route.of("POST", scope(VMSS) + INSTANCE + "/powerOff", RequestKind.POWEROFF,
                COMPUTE + "virtualMachineScaleSets/virtualMachines/powerOff/action",
                r -> uniform.single(r, PowerAction.POWER_OFF)),
            Route.of("DELETE", scope(VMSS) + INSTANCE, RequestKind.DELETE,
                COMPUTE + "virtualMachineScaleSets/virtualMachines/delete",
                r -> uniform.single(r, PowerAction.DELETE)),

            Route.of("GET", scope(RG) + "/providers/Microsoft\\.Compute/virtualMachines", RequestKind.LIST,
                COMPUTE + "virtualMachines/read", flexible::list),
            Route.of("GET", scope(VM), RequestKind.GET_INSTANCE, COMPUTE + "virtualMachines/read", flexible::get),
            Route.of("GET", scope(VM) + "/instanceView", RequestKind.GET_INSTANCE,
                COMPUTE + "virtualMachines/read", flexible::instanceView),
            Route.of("POST", scope(VM) + "/start", RequestKind.START, COMPUTE + "virtualMachines/start/action",
                r -> flexible.action(r, PowerAction.START)),
            Route.of("POST", scope(VM) + "/deallocate", RequestKind.DEALLOCATE,
                COMPUTE + "virtualMachines/deallocate/action", r -> flexible.action(r,
                    "true".equalsIgnoreCase(r.query("hibernate")) ? PowerAction.HIBERNATE : PowerAction.DEALLOCATE)),
            Route.of("POST", scope(VM) + "/powerOff", RequestKind.POWEROFF,
                COMPUTE + "virtualMachines/powerOff/action", r -> flexible.action(r, PowerAction.POWER_OFF)),
            Route.of("DELETE", scope(VM), RequestKind.DELETE, COMPUTE + "virtualMachines/delete",
                r -> flexible.action(r, PowerAction.DELETE)),

            Route.of("GET", scope(SUB) + "/providers/Microsoft\\.Compute/skus", RequestKind.SKUS,
                COMPUTE + "skus/read", resources::skus),
            Route.of("GET", scope(RG), RequestKind.TAGS_READ, "Microsoft.Resources/subscriptions/resourceGroups/read",
                resources::resourceGroup),
            Route.of("GET", "(?<scope>" + RG + "(?:/providers/Microsoft\\.Compute/(?:virtualMachineScaleSets|"
                + "virtualMachines)/[^/]+)?)/providers/Microsoft\\.Resources/tags/default", RequestKind.TAGS_READ,
                "Microsoft.Resources/tags/read", resources::tags),
            Route.of("PATCH", "(?<scope>" + RG + "(?:/providers/Microsoft\\.Compute/(?:virtualMachineScaleSets|"
                + "virtualMachines)/[^/]+)?)/providers/Microsoft\\.Resources/tags/default", RequestKind.TAGS_MERGE,
                "Microsoft.Resources/tags/write", resources::patchTags),
            // Anyone may ask what they themselves may do, so the probe itself needs no permission.
            Route.of("GET", "(?<scope>" + RG + "(?:/providers/Microsoft\\.Compute/virtualMachineScaleSets/[^/]+)?)"
                + "/providers/Microsoft\\.Authorization/permissions", RequestKind.PERMISSIONS, null,
                resources::permissions));
    }

    /** The route for a request, with its path groups bound into the request. */
    Optional<Route> find(ArmRequest request) {
        for (Route route : routes) {
            if (!route.method().equalsIgnoreCase(request.method())) {
                continue;
            }
            Matcher m = route.path().matcher(request.path());
            if (m.matches()) {
                request.match(m);
                return Optional.of(route);
            }
        }
        return Optional.empty();
    }

    /** The minimal capacity PATCH is told apart so tests can check the provider sends nothing else. */
    private static RequestKind patchKind(ArmRequest request) {
        JsonNode body = request.json();
        boolean capacityOnly = body.size() == 1 && body.path("sku").size() == 1
            && body.path("sku").path("capacity").canConvertToInt();
        return capacityOnly ? RequestKind.PATCH_CAPACITY : RequestKind.PATCH;
    }

    private static String scope(String regex) {
        return "(?<scope>" + regex + ")";
    }
}
