package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resource group deployments of ARM templates: validate, create (an operation, then the deployment's GET), and
 * template specs deployed by their version's resource id.
 *
 * <p>The fake evaluates the little of the template language a scale-set template needs: whole-string
 * expressions {@code [parameters('x')]}, {@code [resourceGroup().location]} and {@code [concat(...)]} of those
 * and string literals. Anything else is refused as Resource Manager refuses a template it cannot evaluate
 * ({@code InvalidTemplate}), naming the expression, rather than deployed wrongly. Only
 * {@code Microsoft.Compute/virtualMachineScaleSets} resources are made; the scale set keeps everything the
 * template gave it, custom data included, which its GET then leaves out as Azure's does.
 */
final class DeploymentHandlers {
    private static final Pattern PARAMETER = Pattern.compile("parameters\\('([^']+)'\\)");
    private static final String SCALE_SET_TYPE = "Microsoft.Compute/virtualMachineScaleSets";

    private final ArmState state;
    private final Operations operations;
    private final PowerActions actions;
    private final Permissions permissions;
    private final Map<String, JsonNode> specs = new ConcurrentHashMap<>();
    private final Map<String, ObjectNode> deployments = new ConcurrentHashMap<>();

    DeploymentHandlers(ArmState state, Operations operations, PowerActions actions, Permissions permissions) {
        this.state = state;
        this.operations = operations;
        this.actions = actions;
        this.permissions = permissions;
    }

    /** A template spec version, by its resource id, for deployments to name in {@code templateLink.id}. */
    void addSpec(String versionId, JsonNode template) {
        specs.put(versionId.toLowerCase(), template.deepCopy());
    }

    ArmResponse validate(ArmRequest request) {
        ResourceGroup group = state.requireGroup(request.param("rg"));
        List<ObjectNode> resources = evaluate(group, request.json());
        checkRights(group, resources);
        ObjectNode body = Json.object();
        ObjectNode properties = body.putObject("properties");
        properties.put("provisioningState", "Succeeded");
        ArrayNode validated = properties.putArray("validatedResources");
        resources.forEach(r -> validated.addObject().put("id", group.id() + "/providers/" + SCALE_SET_TYPE + "/"
            + r.path("name").asText()));
        return ArmResponse.ok(body);
    }

    ArmResponse put(ArmRequest request) {
        ResourceGroup group = state.requireGroup(request.param("rg"));
        List<ObjectNode> resources = evaluate(group, request.json());
        checkRights(group, resources);
        Operation last = null;
        for (ObjectNode resource : resources) {
            String name = resource.path("name").asText();
            ObjectNode model = resource.deepCopy();
            List.of("name", "type", "apiVersion", "dependsOn").forEach(model::remove);
            if (!model.has("location")) {
                model.put("location", group.location());
            }
            OrchestrationMode mode = OrchestrationMode.parse(
                model.path("properties").path("orchestrationMode").asText("Flexible"));
            model.withObjectProperty("properties").put("orchestrationMode", mode.armValue());
            ScaleSet scaleSet = group.scaleSet(name) != null ? group.scaleSet(name)
                : state.createScaleSet(group, name, mode, model);
            scaleSet.replaceModel(model);
            last = actions.resize(scaleSet, model.path("sku").path("capacity").asInt(0), request);
        }
        if (last == null) {
            last = operations.begin(group.location(), request.outcome());
        }
        ObjectNode deployment = deployment(request, group, "Accepted");
        deployments.put(key(request), deployment(request, group, "Succeeded"));
        return operations.withStatusHeader(ArmResponse.json(201, deployment), request, last);
    }

    ArmResponse get(ArmRequest request) {
        ObjectNode deployment = deployments.get(key(request));
        if (deployment == null) {
            throw new ArmException(404, "DeploymentNotFound", "Deployment '" + request.param("name")
                + "' could not be found.");
        }
        return ArmResponse.ok(deployment);
    }

    private void checkRights(ResourceGroup group, List<ObjectNode> resources) {
        // Resource Manager checks that the deployer may write every resource the template makes.
        for (ObjectNode resource : resources) {
            permissions.check("Microsoft.Compute/virtualMachineScaleSets/write", group.id()
                + "/providers/" + SCALE_SET_TYPE + "/" + resource.path("name").asText());
        }
    }

    private ObjectNode deployment(ArmRequest request, ResourceGroup group, String provisioningState) {
        ObjectNode body = Json.object();
        body.put("id", group.id() + "/providers/Microsoft.Resources/deployments/" + request.param("name"));
        body.put("name", request.param("name"));
        body.put("type", "Microsoft.Resources/deployments");
        ObjectNode properties = body.putObject("properties");
        properties.put("provisioningState", provisioningState);
        properties.put("mode", request.json().path("properties").path("mode").asText("Incremental"));
        return body;
    }

    /** The template's scale sets with every expression evaluated. */
    private List<ObjectNode> evaluate(ResourceGroup group, JsonNode deployment) {
        JsonNode properties = deployment.path("properties");
        JsonNode template = properties.path("template");
        if (template.isMissingNode() || template.isNull()) {
            String specId = properties.path("templateLink").path("id").asText("");
            template = specs.get(specId.toLowerCase());
            if (template == null) {
                throw new ArmException(404, "TemplateSpecNotFound", "The template spec version '" + specId
                    + "' could not be found.");
            }
        }
        Map<String, JsonNode> values = parameterValues(template.path("parameters"), properties.path("parameters"));
        List<ObjectNode> resources = new ArrayList<>();
        for (JsonNode resource : template.path("resources")) {
            if (!SCALE_SET_TYPE.equalsIgnoreCase(resource.path("type").asText())) {
                throw invalid("The fake deploys only " + SCALE_SET_TYPE + " resources, not '"
                    + resource.path("type").asText() + "'.");
            }
            resources.add((ObjectNode) evaluate(resource.deepCopy(), values, group));
        }
        return resources;
    }

    private static Map<String, JsonNode> parameterValues(JsonNode declared, JsonNode given) {
        Map<String, JsonNode> values = new java.util.HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = declared.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> parameter = it.next();
            JsonNode value = given.path(parameter.getKey()).path("value");
            if (value.isMissingNode()) {
                value = parameter.getValue().path("defaultValue");
            }
            if (value.isMissingNode()) {
                throw invalid("Deployment template validation failed: 'The value for the template parameter '"
                    + parameter.getKey() + "' at line '1' and column '1' is not provided.'");
            }
            values.put(parameter.getKey(), value);
        }
        for (Iterator<String> it = given.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!declared.has(name)) {
                throw invalid("Deployment template validation failed: 'The template parameters '" + name
                    + "' in the parameters file are not valid; they are not present in the original template and"
                    + " can therefore not be provided at deployment time.'");
            }
        }
        return values;
    }

    private static JsonNode evaluate(JsonNode node, Map<String, JsonNode> values, ResourceGroup group) {
        if (node.isObject()) {
            ObjectNode object = (ObjectNode) node;
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                object.set(name, evaluate(object.get(name), values, group));
            }
            return object;
        }
        if (node.isArray()) {
            ArrayNode array = (ArrayNode) node;
            for (int i = 0; i < array.size(); i++) {
                array.set(i, evaluate(array.get(i), values, group));
            }
            return array;
        }
        String text = node.asText();
        if (!node.isTextual() || !text.startsWith("[") || text.startsWith("[[") || !text.endsWith("]")) {
            return node;
        }
        return expression(text.substring(1, text.length() - 1).strip(), values, group);
    }

    private static JsonNode expression(String expression, Map<String, JsonNode> values, ResourceGroup group) {
        Matcher parameter = PARAMETER.matcher(expression);
        if (parameter.matches()) {
            JsonNode value = values.get(parameter.group(1));
            if (value == null) {
                throw invalid("The template parameter '" + parameter.group(1) + "' is not found.");
            }
            return value;
        }
        if (expression.equals("resourceGroup().location")) {
            return TextNode.valueOf(group.location());
        }
        if (expression.startsWith("concat(") && expression.endsWith(")")) {
            StringBuilder joined = new StringBuilder();
            for (String part : expression.substring(7, expression.length() - 1).split(",")) {
                String p = part.strip();
                joined.append(p.startsWith("'") && p.endsWith("'") ? p.substring(1, p.length() - 1)
                    : expression(p, values, group).asText());
            }
            return TextNode.valueOf(joined.toString());
        }
        throw invalid("The template language expression '" + expression + "' is not supported by this fake.");
    }

    private static ArmException invalid(String message) {
        return ArmException.badRequest("InvalidTemplate", message, null);
    }

    private static String key(ArmRequest request) {
        return (request.param("rg") + "/" + request.param("name")).toLowerCase();
    }
}
