package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** The scale set itself: get, list, create or replace (PUT), capacity and other PATCHes, delete. */
final class ScaleSetHandlers {
    /** Fields ARM fills in itself; a PUT copied from a GET may carry them and they are ignored. */
    private static final List<String> READ_ONLY = List.of("id", "name", "type", "etag");
    private static final List<String> READ_ONLY_PROPERTIES = List.of("provisioningState", "uniqueId",
        "timeCreated");

    private final ArmState state;
    private final Operations operations;
    private final PowerActions actions;
    private final Settings settings;

    ScaleSetHandlers(ArmState state, Operations operations, PowerActions actions, Settings settings) {
        this.state = state;
        this.operations = operations;
        this.actions = actions;
        this.settings = settings;
    }

    ArmResponse list(ArmRequest request) {
        ResourceGroup group = state.requireGroup(request.param("rg"));
        List<ObjectNode> all = group.scaleSets().stream().map(ResourceJson::scaleSet).toList();
        return ArmResponse.ok(Paging.page(all, request, settings.pageSize()));
    }

    ArmResponse get(ArmRequest request) {
        return ArmResponse.ok(ResourceJson.scaleSet(scaleSet(request),
            "userData".equalsIgnoreCase(request.query("$expand"))));
    }

    /** Creates (201) or replaces the model (200); either way an operation follows, polled before the final GET. */
    ArmResponse put(ArmRequest request) {
        ResourceGroup group = state.requireGroup(request.param("rg"));
        String name = request.param("vmss");
        ObjectNode model = validModel(request.json());
        OrchestrationMode mode = OrchestrationMode.parse(
            model.path("properties").path("orchestrationMode").asText("Flexible"));
        model.withObjectProperty("properties").put("orchestrationMode", mode.armValue());
        if (mode == OrchestrationMode.FLEXIBLE && !model.path("properties").has("platformFaultDomainCount")) {
            throw ArmException.badRequest("InvalidParameter",
                "Required parameter 'platformFaultDomainCount' is missing (null).", "platformFaultDomainCount");
        }
        int capacity = model.path("sku").path("capacity").asInt(0);
        ScaleSet existing = group.scaleSet(name);
        if (existing != null && existing.mode() != mode) {
            throw new ArmException(409, "PropertyChangeNotAllowed",
                "Changing property 'orchestrationMode' is not allowed.", "orchestrationMode");
        }
        ScaleSet scaleSet = existing != null ? existing : state.createScaleSet(group, name, mode, model);
        scaleSet.replaceModel(model);
        Operation operation = actions.resize(scaleSet, capacity, request);
        ObjectNode body = ResourceJson.scaleSet(scaleSet);
        body.withObjectProperty("properties").put("provisioningState", existing == null ? "Creating" : "Updating");
        return operations.withStatusHeader(ArmResponse.json(existing == null ? 201 : 200, body), request, operation);
    }

    /** Merges the body into the model; a new sku.capacity grows or shrinks the instances. */
    ArmResponse patch(ArmRequest request) {
        ScaleSet scaleSet = scaleSet(request);
        JsonNode body = request.json();
        if (!body.isObject()) {
            throw ArmException.badRequest("InvalidRequestContent", "The request content was invalid.", null);
        }
        ObjectNode rest = ((ObjectNode) body).deepCopy();
        JsonNode capacity = rest.path("sku").path("capacity");
        if (rest.path("sku").isObject()) {
            ((ObjectNode) rest.get("sku")).remove("capacity");
        }
        if (rest.has("tags")) {
            ObjectNode model = scaleSet.model();
            model.set("tags", rest.remove("tags"));
            scaleSet.replaceModel(model);
        }
        scaleSet.patchModel(rest);
        Operation operation = capacity.canConvertToInt()
            ? actions.resize(scaleSet, capacity.asInt(), request)
            : operations.begin(scaleSet.location(), request.outcome());
        ObjectNode reply = ResourceJson.scaleSet(scaleSet);
        reply.withObjectProperty("properties").put("provisioningState", "Updating");
        return operations.withStatusHeader(ArmResponse.ok(reply), request, operation);
    }

    /** The scale set and its instances are gone at once; the operation only reports it. */
    ArmResponse delete(ArmRequest request) {
        ScaleSet scaleSet = scaleSet(request);
        state.deleteScaleSet(scaleSet);
        return operations.accepted(request, operations.begin(scaleSet.location(), request.outcome()));
    }

    private ScaleSet scaleSet(ArmRequest request) {
        return state.requireScaleSet(request.param("rg"), request.param("vmss"));
    }

    private static ObjectNode validModel(JsonNode body) {
        if (!body.isObject()) {
            throw ArmException.badRequest("InvalidRequestContent", "The request content was invalid.", null);
        }
        ObjectNode model = ((ObjectNode) body).deepCopy();
        READ_ONLY.forEach(model::remove);
        if (model.path("properties").isObject()) {
            READ_ONLY_PROPERTIES.forEach(((ObjectNode) model.get("properties"))::remove);
        }
        if (!model.path("location").isTextual()) {
            throw ArmException.badRequest("LocationRequired", "The location property is required for this"
                + " definition.", "location");
        }
        if (!model.path("sku").path("name").isTextual()) {
            throw ArmException.badRequest("InvalidParameter", "Required parameter 'sku.name' is missing (null).",
                "sku.name");
        }
        return model;
    }
}
