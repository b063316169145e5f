package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Requests under {@code virtualMachineScaleSets/{name}}: the instance list, per-instance calls, and the batch
 * actions with {@code {"instanceIds":[...]}}. Flexible scale sets are refused where Azure refuses them.
 */
final class UniformHandlers {
    private final ArmState state;
    private final Operations operations;
    private final PowerActions actions;
    private final Settings settings;

    UniformHandlers(ArmState state, Operations operations, PowerActions actions, Settings settings) {
        this.state = state;
        this.operations = operations;
        this.actions = actions;
        this.settings = settings;
    }

    /** Paged; the instance view comes only with {@code $expand=instanceView}, as in Azure. */
    ArmResponse list(ArmRequest request) {
        ScaleSet scaleSet = uniformOnly(request, "List Virtual Machine Scale Set VMs");
        boolean expand = "instanceView".equalsIgnoreCase(request.query("$expand"));
        Instant now = settings.clock().instant();
        List<ObjectNode> all = scaleSet.instances().stream()
            .map(i -> ResourceJson.uniformInstance(i, expand, now)).toList();
        return ArmResponse.ok(Paging.page(all, request, settings.pageSize()));
    }

    ArmResponse get(ArmRequest request) {
        Instance instance = instance(request);
        boolean expand = "instanceView".equalsIgnoreCase(request.query("$expand"));
        return ArmResponse.ok(ResourceJson.uniformInstance(instance, expand, settings.clock().instant()));
    }

    ArmResponse instanceView(ArmRequest request) {
        return ArmResponse.ok(ResourceJson.instanceView(instance(request), settings.clock().instant()));
    }

    /** The scale set's summary view; Flexible scale sets do not have one. */
    ArmResponse scaleSetInstanceView(ArmRequest request) {
        ScaleSet scaleSet = uniformOnly(request, "Get Virtual Machine Scale Set Instance View");
        Map<String, Integer> counts = new TreeMap<>();
        Instant now = settings.clock().instant();
        scaleSet.instances().forEach(i -> counts.merge(i.powerState(now).code(), 1, Integer::sum));
        ObjectNode body = Json.object();
        ObjectNode summary = body.putObject("virtualMachine");
        var statuses = summary.putArray("statusesSummary");
        counts.forEach((code, count) -> statuses.addObject().put("code", code).put("count", count));
        body.putArray("statuses").addObject().put("code", "ProvisioningState/succeeded").put("level", "Info")
            .put("displayStatus", "Provisioning succeeded");
        return ArmResponse.ok(body);
    }

    /**
     * {@code POST V/start|deallocate|poweroff|delete}. No body or an empty list means every instance, as Azure
     * documents for omitted ids; the fake reads {@code []} the same way, the dangerous reading.
     */
    ArmResponse batch(ArmRequest request, PowerAction action) {
        ScaleSet scaleSet = state.requireScaleSet(request.param("rg"), request.param("vmss"));
        List<String> ids = instanceIds(request.json());
        if (scaleSet.mode() == OrchestrationMode.FLEXIBLE && action != PowerAction.DELETE) {
            throw ArmException.badRequest("OperationNotAllowed", "Operation '" + action.operationName()
                + "' on Virtual Machine Scale Set '" + scaleSet.name() + "' is not supported for orchestration mode"
                + " 'Flexible'. Perform the operation on each virtual machine instead.", null);
        }
        if (action == PowerAction.DELETE && ids.isEmpty()) {
            throw ArmException.badRequest("InvalidParameter", "Required parameter 'instanceIds' is missing"
                + " (null).", "instanceIds");
        }
        List<Instance> targets = ids.isEmpty() ? scaleSet.instances() : resolve(scaleSet, ids);
        Operation operation = actions.apply(scaleSet, targets, action, request);
        return operations.accepted(request, operation);
    }

    /** {@code POST V/virtualMachines/{id}/start} and the like, one numbered instance. */
    ArmResponse single(ArmRequest request, PowerAction action) {
        Instance instance = instance(request);
        Operation operation = actions.apply(instance.scaleSet(), List.of(instance), action, request);
        return operations.accepted(request, operation);
    }

    private Instance instance(ArmRequest request) {
        String id = request.param("id");
        if (!id.matches("\\d+")) {
            throw ArmException.notANumber();
        }
        ScaleSet scaleSet = state.requireScaleSet(request.param("rg"), request.param("vmss"));
        return scaleSet.instance(id).orElseThrow(() -> ArmException.resourceNotFound(
            "Microsoft.Compute/virtualMachineScaleSets/virtualMachines", scaleSet.name() + "/" + id,
            scaleSet.resourceGroup().name()));
    }

    private ScaleSet uniformOnly(ArmRequest request, String operation) {
        ScaleSet scaleSet = state.requireScaleSet(request.param("rg"), request.param("vmss"));
        if (scaleSet.mode() == OrchestrationMode.FLEXIBLE) {
            throw ArmException.badRequest("OperationNotAllowed", "Operation '" + operation + "' is not allowed"
                + " since the Virtual Machine Scale Set '" + scaleSet.name() + "' uses orchestration mode"
                + " 'Flexible'.", null);
        }
        return scaleSet;
    }

    /** Uniform ids must be numbers; Flexible ids are VM names (accepted by batch delete only). */
    private static List<Instance> resolve(ScaleSet scaleSet, List<String> ids) {
        List<Instance> targets = new ArrayList<>();
        for (String id : ids) {
            if (scaleSet.mode() == OrchestrationMode.UNIFORM && !id.matches("\\d+")) {
                throw ArmException.badRequest("InvalidParameter",
                    "Virtual Machine Scale Set VM instanceId must be a number.", "instanceIds");
            }
            targets.add(scaleSet.instance(id).orElseThrow(() -> ArmException.badRequest("InvalidParameter",
                "The provided instanceId " + id + " is not an active Virtual Machine Scale Set VM instanceId.",
                "instanceIds")));
        }
        return targets;
    }

    private static List<String> instanceIds(JsonNode body) {
        List<String> ids = new ArrayList<>();
        body.path("instanceIds").forEach(id -> ids.add(id.asText()));
        return ids;
    }
}
