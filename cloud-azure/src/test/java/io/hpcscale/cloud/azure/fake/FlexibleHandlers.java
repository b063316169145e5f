package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Flexible instances as the plain VMs they are: the resource group's VM list filtered by scale set, and the
 * per-VM start, deallocate, power-off and delete.
 */
final class FlexibleHandlers {
    private static final Pattern SCALE_SET_FILTER =
        Pattern.compile("^\\s*'virtualMachineScaleSet/id'\\s+eq\\s+'([^']+)'\\s*$", Pattern.CASE_INSENSITIVE);

    private final ArmState state;
    private final Operations operations;
    private final PowerActions actions;
    private final Settings settings;

    FlexibleHandlers(ArmState state, Operations operations, PowerActions actions, Settings settings) {
        this.state = state;
        this.operations = operations;
        this.actions = actions;
        this.settings = settings;
    }

    /** {@code $expand=instanceView} is accepted only with a valid scale-set filter, as Azure documents. */
    ArmResponse list(ArmRequest request) {
        ResourceGroup group = state.requireGroup(request.param("rg"));
        String filter = request.query("$filter");
        String expand = request.query("$expand");
        String scaleSetId = null;
        if (filter != null) {
            Matcher m = SCALE_SET_FILTER.matcher(filter);
            if (!m.matches()) {
                throw ArmException.badRequest("InvalidParameter", "The value of parameter '$filter' is invalid."
                    + " The only supported filter is 'virtualMachineScaleSet/id' eq '<scale set resource id>'.",
                    "$filter");
            }
            scaleSetId = m.group(1);
        }
        if (expand != null && (scaleSetId == null || !"instanceView".equalsIgnoreCase(expand))) {
            throw ArmException.badRequest("InvalidParameter", "The value '" + expand + "' of parameter '$expand'"
                + " is not allowed here: 'instanceView' can only be specified together with a valid $filter"
                + " on 'virtualMachineScaleSet/id'.", "$expand");
        }
        String wanted = scaleSetId;
        Instant now = settings.clock().instant();
        List<ObjectNode> vms = state.virtualMachines(group).stream()
            .filter(vm -> wanted == null || vm.scaleSet().id().equalsIgnoreCase(wanted))
            .map(vm -> ResourceJson.virtualMachine(vm, expand != null, now)).toList();
        return ArmResponse.ok(Paging.page(vms, request, settings.pageSize(), settings.flexibleNextLinkEncoded()));
    }

    ArmResponse get(ArmRequest request) {
        boolean expand = "instanceView".equalsIgnoreCase(request.query("$expand"));
        return ArmResponse.ok(ResourceJson.virtualMachine(vm(request), expand, settings.clock().instant()));
    }

    ArmResponse instanceView(ArmRequest request) {
        return ArmResponse.ok(ResourceJson.instanceView(vm(request), settings.clock().instant()));
    }

    ArmResponse action(ArmRequest request, PowerAction action) {
        Instance vm = vm(request);
        Operation operation = actions.apply(vm.scaleSet(), List.of(vm), action, request);
        return operations.accepted(request, operation);
    }

    private Instance vm(ArmRequest request) {
        return state.requireVirtualMachine(state.requireGroup(request.param("rg")), request.param("vm"));
    }
}
