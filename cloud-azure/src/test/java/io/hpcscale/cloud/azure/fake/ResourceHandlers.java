package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Subscription-level reads and the tag API: resource groups, tags at scope, permissions, resource SKUs. */
final class ResourceHandlers {
    private static final Pattern TAG_SCOPE = Pattern.compile(
        "/subscriptions/[^/]+/resourceGroups/(?<rg>[^/]+)(?:/providers/Microsoft\\.Compute/"
            + "(?<type>virtualMachineScaleSets|virtualMachines)/(?<name>[^/]+))?", Pattern.CASE_INSENSITIVE);

    private final ArmState state;
    private final Permissions permissions;
    private final VmSizes sizes;
    private final Settings settings;

    ResourceHandlers(ArmState state, Permissions permissions, VmSizes sizes, Settings settings) {
        this.state = state;
        this.permissions = permissions;
        this.sizes = sizes;
        this.settings = settings;
    }

    ArmResponse resourceGroup(ArmRequest request) {
        ResourceGroup group = state.requireGroup(request.param("rg"));
        ObjectNode body = Json.object();
        body.put("id", group.id());
        body.put("name", group.name());
        body.put("type", "Microsoft.Resources/resourceGroups");
        body.put("location", group.location());
        body.set("tags", Json.tags(group.tags()));
        body.putObject("properties").put("provisioningState", "Succeeded");
        return ArmResponse.ok(body);
    }

    ArmResponse tags(ArmRequest request) {
        String scope = request.param("scope");
        return ArmResponse.ok(tagsResource(scope, tagsAt(scope)));
    }

    /** Merge adds or overwrites the given tags, Replace sets exactly them, Delete removes them. */
    ArmResponse patchTags(ArmRequest request) {
        String scope = request.param("scope");
        Map<String, String> tags = tagsAt(scope);
        JsonNode body = request.json();
        String operation = body.path("operation").asText("");
        Map<String, String> given = new HashMap<>();
        body.path("properties").path("tags").fields()
            .forEachRemaining(e -> given.put(e.getKey(), e.getValue().asText()));
        switch (operation.toLowerCase()) {
            case "merge" -> tags.putAll(given);
            case "replace" -> {
                tags.clear();
                tags.putAll(given);
            }
            case "delete" -> given.keySet().forEach(tags::remove);
            default -> throw ArmException.badRequest("InvalidTagOperation", "The tag operation '" + operation
                + "' is not valid. Supported operations: Merge, Replace, Delete.", "operation");
        }
        return ArmResponse.ok(tagsResource(scope, tags));
    }

    ArmResponse permissions(ArmRequest request) {
        state.requireGroup(request.param("rg"));
        return ArmResponse.ok(permissions.toJson());
    }

    ArmResponse skus(ArmRequest request) {
        return ArmResponse.ok(Paging.page(sizes.list(request.query("$filter")), request, settings.pageSize()));
    }

    /** The live tag map of a resource group, scale set or Flexible VM. */
    private Map<String, String> tagsAt(String scope) {
        Matcher m = TAG_SCOPE.matcher(scope);
        if (!m.matches()) {
            throw ArmException.badRequest("InvalidScope", "The scope '" + scope + "' is not supported.", "scope");
        }
        ResourceGroup group = state.requireGroup(m.group("rg"));
        if (m.group("type") == null) {
            return group.tags();
        }
        if (m.group("type").equalsIgnoreCase("virtualMachines")) {
            return state.requireVirtualMachine(group, m.group("name")).tags();
        }
        return new ScaleSetTags(state.requireScaleSet(group.name(), m.group("name")));
    }

    private static ObjectNode tagsResource(String scope, Map<String, String> tags) {
        ObjectNode body = Json.object();
        body.put("id", scope + "/providers/Microsoft.Resources/tags/default");
        body.put("name", "default");
        body.put("type", "Microsoft.Resources/tags");
        body.putObject("properties").set("tags", Json.tags(tags));
        return body;
    }
}
