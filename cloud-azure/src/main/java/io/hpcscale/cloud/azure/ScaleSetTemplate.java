package io.hpcscale.cloud.azure;

import com.azure.core.util.Context;
import com.azure.core.util.polling.SyncPoller;
import com.azure.resourcemanager.resources.fluent.DeploymentsClient;
import com.azure.resourcemanager.resources.fluent.models.DeploymentInner;
import com.azure.resourcemanager.resources.models.DeploymentMode;
import com.azure.resourcemanager.resources.models.DeploymentParameter;
import com.azure.resourcemanager.resources.models.DeploymentProperties;
import com.azure.resourcemanager.resources.models.TemplateLink;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.scaler.cloud.CloudException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a pool's new scale sets are deployed from: an ARM template the administrator supplies in full
 * ({@code pool.<name>.azure.template}, a JSON file or a template spec version's resource id), deployed into the
 * pool's resource group with the parameters {@code name} and {@code capacity} and any others from
 * {@code pool.<name>.azure.templateParameters}.
 *
 * <p>Why not copy a scale set's model: Resource Manager never returns a scale set's {@code customData},
 * {@code adminPassword} or extensions' {@code protectedSettings} (azure-cli#5866, azure-sdk-for-java#21779), so a
 * scale set made by GET and PUT boots without cloud-init and never joins the scheduler. A template holds them.
 *
 * <p>The file is read at every deployment, so an edited template is used without a restart.
 */
final class ScaleSetTemplate {
    static final String NAME = "name";
    static final String CAPACITY = "capacity";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Resource Manager's longest deployment name. */
    private static final int MAX_DEPLOYMENT_NAME = 64;
    private static final String SCALE_SET_TYPE = "microsoft.compute/virtualmachinescalesets";

    private final AzurePoolSettings pool;

    ScaleSetTemplate(AzurePoolSettings pool) {
        this.pool = pool;
    }

    /** Whether the template is a template spec version, deployed by reference, rather than a file. */
    boolean spec() {
        return pool.template().toLowerCase(Locale.ROOT).startsWith("/subscriptions/");
    }

    /**
     * Deploys a scale set named {@code name} with {@code capacity} instances and waits for the deployment.
     *
     * @return null when it succeeded, else why it is unfinished
     * @throws CloudException when the template or its parameters cannot be read
     * @throws RuntimeException the SDK's, when Azure refuses or the deployment fails
     */
    String deploy(AzureClients clients, LongOperations operations, String name, int capacity)
            throws CloudException, InterruptedException {
        SyncPoller<?, ?> poller = deployments(clients).beginCreateOrUpdate(pool.resourceGroup(),
                deploymentName(name), deployment(name, capacity), Context.NONE);
        return operations.await(poller);
    }

    /** Asks Resource Manager to validate a deployment of the template: the template, its parameters, the rights. */
    void validate(AzureClients clients, LongOperations operations, String name, int capacity)
            throws CloudException, InterruptedException {
        operations.await(deployments(clients).beginValidate(pool.resourceGroup(), deploymentName(name),
                deployment(name, capacity), Context.NONE));
    }

    /**
     * What can be told of the template without Azure: it reads, it takes {@code name} and {@code capacity}, its
     * other parameters have values, and (a file) it makes a scale set named by the {@code name} parameter. Empty
     * when nothing is wrong.
     */
    List<String> problems() {
        List<String> problems = new ArrayList<>();
        Map<String, JsonNode> given;
        try {
            given = parameters();
        } catch (CloudException e) {
            return List.of(e.getMessage());
        }
        if (spec()) {
            return problems;
        }
        JsonNode template;
        try {
            template = template();
        } catch (CloudException e) {
            return List.of(e.getMessage());
        }
        JsonNode declared = template.path("parameters");
        for (String required : List.of(NAME, CAPACITY)) {
            if (!declared.has(required)) {
                problems.add(describe() + " declares no parameter " + required + ": hpcscale passes the new scale "
                        + "set's name and capacity as the parameters name and capacity");
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = declared.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> parameter = it.next();
            String key = parameter.getKey();
            if (!key.equals(NAME) && !key.equals(CAPACITY) && !parameter.getValue().has("defaultValue")
                    && !given.containsKey(key)) {
                problems.add(describe() + " needs a value for its parameter " + key + ": give it a defaultValue or "
                        + "put it in pool." + pool.pool() + ".azure.templateParameters");
            }
        }
        boolean makesScaleSet = false;
        for (JsonNode resource : template.path("resources")) {
            if (SCALE_SET_TYPE.equalsIgnoreCase(resource.path("type").asText())) {
                makesScaleSet = true;
                if (!resource.path("name").asText().replace(" ", "").contains("parameters('" + NAME + "')")) {
                    problems.add(describe() + " makes a scale set not named by the parameter name (its name is "
                            + resource.path("name").asText() + "): every scale set it makes would have that name");
                }
            }
        }
        if (!makesScaleSet) {
            problems.add(describe() + " makes no resource of type Microsoft.Compute/virtualMachineScaleSets");
        }
        return problems;
    }

    String describe() {
        return (spec() ? "template spec " : "template ") + pool.template() + " (pool." + pool.pool()
                + ".azure.template)";
    }

    private DeploymentInner deployment(String name, int capacity) throws CloudException {
        Map<String, DeploymentParameter> parameters = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> given : parameters().entrySet()) {
            parameters.put(given.getKey(), new DeploymentParameter().withValue(
                    JSON.convertValue(given.getValue(), Object.class)));
        }
        parameters.put(NAME, new DeploymentParameter().withValue(name));
        parameters.put(CAPACITY, new DeploymentParameter().withValue(capacity));
        DeploymentProperties properties = new DeploymentProperties().withMode(DeploymentMode.INCREMENTAL)
                .withParameters(parameters);
        if (spec()) {
            properties.withTemplateLink(new TemplateLink().withId(pool.template()));
        } else {
            properties.withTemplate(JSON.convertValue(template(), Object.class));
        }
        return new DeploymentInner().withProperties(properties);
    }

    private JsonNode template() throws CloudException {
        JsonNode template = readJson(Path.of(pool.template()), "azure.template");
        if (!template.isObject() || !template.has("resources")) {
            throw new CloudException(describe() + " is not an ARM template: it has no resources (compile Bicep "
                    + "with az bicep build first)");
        }
        return template;
    }

    /** The parameters file's values, by name ({@code {"parameters": {"p": {"value": ...}}}}); none when unset. */
    private Map<String, JsonNode> parameters() throws CloudException {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        if (pool.templateParameters() == null) {
            return values;
        }
        JsonNode file = readJson(pool.templateParameters(), "azure.templateParameters");
        JsonNode parameters = file.has("parameters") ? file.get("parameters") : file;
        for (Iterator<Map.Entry<String, JsonNode>> it = parameters.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> parameter = it.next();
            if (!parameter.getValue().has("value")) {
                throw new CloudException("parameter " + parameter.getKey() + " of " + pool.templateParameters()
                        + " (pool." + pool.pool() + ".azure.templateParameters) has no value: write it as {\""
                        + parameter.getKey() + "\": {\"value\": ...}}");
            }
            values.put(parameter.getKey(), parameter.getValue().get("value"));
        }
        return values;
    }

    private JsonNode readJson(Path file, String setting) throws CloudException {
        String where = file + " (pool." + pool.pool() + "." + setting + ")";
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new CloudException("cannot read " + where + ": " + e.getMessage());
        }
        try {
            return JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            // Only where: the parser's message quotes the text it choked on, and a parameters file holds secrets.
            JsonLocation at = e.getLocation();
            throw new CloudException(where + " is not valid JSON" + (at == null ? ""
                    : " at line " + at.getLineNr() + ", column " + at.getColumnNr()));
        } catch (IOException e) {
            throw new CloudException("cannot read " + where + ": " + e.getClass().getSimpleName());
        }
    }

    /** One deployment per scale set, named after it, so that deploying it again replaces the same record. */
    private static String deploymentName(String scaleSet) {
        String name = "hpcscale-" + scaleSet;
        return name.length() <= MAX_DEPLOYMENT_NAME ? name : name.substring(0, MAX_DEPLOYMENT_NAME);
    }

    private DeploymentsClient deployments(AzureClients clients) {
        return clients.compute(pool.subscriptionId()).resourceManager().deploymentClient().getDeployments();
    }
}
