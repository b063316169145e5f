package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;

/** Scale sets, instances and VMs rendered as ARM renders them, read-only fields included. */
final class ResourceJson {
    private ResourceJson() {
    }

    /** As a GET or list shows it: without what Resource Manager never returns (see {@link #withoutSecrets}). */
    static ObjectNode scaleSet(ScaleSet scaleSet) {
        return scaleSet(scaleSet, false);
    }

    /** @param userData whether the request asked {@code $expand=userData}, the only way to read it back */
    static ObjectNode scaleSet(ScaleSet scaleSet, boolean userData) {
        ObjectNode body = Json.object();
        body.put("name", scaleSet.name());
        body.put("id", scaleSet.id());
        body.put("type", "Microsoft.Compute/virtualMachineScaleSets");
        body.setAll(withoutSecrets(scaleSet.model(), userData));
        ObjectNode properties = body.withObjectProperty("properties");
        properties.put("orchestrationMode", scaleSet.mode().armValue());
        properties.put("provisioningState", "Succeeded");
        properties.put("uniqueId", scaleSet.uniqueId());
        properties.put("timeCreated", scaleSet.timeCreated().toString());
        return body;
    }

    /**
     * The model less what a GET never returns: {@code osProfile.customData} (azure-cli#5866),
     * {@code adminPassword}, extensions' {@code protectedSettings} (azure-sdk-for-java#21779), and {@code userData}
     * unless asked for with {@code $expand=userData} (azure-rest-api-specs PR 13220).
     */
    static ObjectNode withoutSecrets(ObjectNode model, boolean userData) {
        JsonNode profile = model.path("properties").path("virtualMachineProfile");
        if (profile.isObject()) {
            ObjectNode vm = (ObjectNode) profile;
            if (vm.path("osProfile").isObject()) {
                ((ObjectNode) vm.get("osProfile")).remove(List.of("customData", "adminPassword"));
            }
            for (JsonNode extension : vm.path("extensionProfile").path("extensions")) {
                if (extension.path("properties").isObject()) {
                    ((ObjectNode) extension.get("properties")).remove("protectedSettings");
                }
            }
            if (!userData) {
                vm.remove("userData");
            }
        }
        return model;
    }

    /** A Uniform instance; {@code expand} adds the instance view, as {@code $expand=instanceView} does. */
    static ObjectNode uniformInstance(Instance instance, boolean expand, Instant now) {
        ScaleSet scaleSet = instance.scaleSet();
        ObjectNode body = Json.object();
        body.put("name", instance.name());
        body.put("id", scaleSet.id() + "/virtualMachines/" + instance.instanceId());
        body.put("type", "Microsoft.Compute/virtualMachineScaleSets/virtualMachines");
        body.put("location", scaleSet.location());
        body.set("tags", Json.tags(instance.tags()));
        body.put("instanceId", instance.instanceId());
        body.putObject("sku").put("name", scaleSet.skuName()).put("tier", "Standard");
        ObjectNode properties = body.putObject("properties");
        properties.put("latestModelApplied", true);
        properties.put("modelDefinitionApplied", "VirtualMachineScaleSet");
        properties.put("vmId", instance.vmId());
        properties.put("provisioningState", provisioningState(instance, now));
        properties.put("timeCreated", instance.timeCreated().toString());
        properties.putObject("hardwareProfile");
        commonProperties(properties, instance);
        if (expand) {
            properties.set("instanceView", instanceView(instance, now));
        }
        return body;
    }

    /** A Flexible VM: an ordinary VM whose {@code virtualMachineScaleSet.id} names its scale set. */
    static ObjectNode virtualMachine(Instance instance, boolean expand, Instant now) {
        ScaleSet scaleSet = instance.scaleSet();
        ObjectNode body = Json.object();
        boolean nameless = instance.oddity() == Instance.Oddity.NAMELESS;
        body.put("name", nameless ? "" : instance.name());
        body.put("id", nameless ? "" : scaleSet.resourceGroup().id() + "/providers/Microsoft.Compute/virtualMachines/"
            + instance.name());
        body.put("type", "Microsoft.Compute/virtualMachines");
        body.put("location", scaleSet.location());
        body.set("tags", Json.tags(instance.tags()));
        ObjectNode properties = body.putObject("properties");
        properties.put("vmId", instance.vmId());
        properties.putObject("hardwareProfile").put("vmSize", scaleSet.skuName());
        properties.putObject("virtualMachineScaleSet").put("id", scaleSet.id());
        if (scaleSet.hibernationEnabled()) {
            // A VM of the scale set takes its additionalCapabilities; GET shows them (Microsoft Learn,
            // "Troubleshooting VM hibernation": check hibernationEnabled with the GET VM API).
            properties.putObject("additionalCapabilities").put("hibernationEnabled", true);
        }
        properties.put("provisioningState", provisioningState(instance, now));
        properties.put("timeCreated", instance.timeCreated().toString());
        JsonNode profile = scaleSet.model().path("properties").path("virtualMachineProfile");
        properties.put("priority", scaleSet.priority());
        if ("Spot".equals(scaleSet.priority())) {
            properties.put("evictionPolicy", scaleSet.evictionPolicy());
            properties.set("billingProfile", profile.path("billingProfile").deepCopy());
        }
        commonProperties(properties, instance);
        if (expand) {
            properties.set("instanceView", instanceView(instance, now));
        }
        return body;
    }

    static ObjectNode instanceView(Instance instance, Instant now) {
        ObjectNode view = Json.object();
        view.put("computerName", instance.computerName());
        view.put("osName", "ubuntu");
        view.put("osVersion", "22.04");
        ArrayNode statuses = view.putArray("statuses");
        Instance.Failure failure = instance.failure();
        Instance.Oddity oddity = instance.oddity();
        if (oddity == Instance.Oddity.DELETING || oddity == Instance.Oddity.NAMELESS) {
            statuses.addObject().put("code", "ProvisioningState/deleting").put("level", "Info")
                .put("displayStatus", "Deleting");
        } else if (failure != null) {
            statuses.addObject().put("code", "ProvisioningState/failed/" + failure.code()).put("level", "Error")
                .put("displayStatus", "Provisioning failed").put("message", failure.message())
                .put("time", now.toString());
        } else if (instance.isTransitioning(now)) {
            statuses.addObject().put("code", "ProvisioningState/updating").put("level", "Info")
                .put("displayStatus", "Updating");
        } else {
            statuses.addObject().put("code", "ProvisioningState/succeeded").put("level", "Info")
                .put("displayStatus", "Provisioning succeeded").put("time", now.toString());
        }
        if (oddity == Instance.Oddity.FAILED_WITHOUT_POWER) {
            return view;
        }
        if (oddity == Instance.Oddity.POWER_UNKNOWN) {
            statuses.addObject().put("code", "PowerState/unknown").put("level", "Info")
                .put("displayStatus", "VM status unknown");
            return view;
        }
        PowerState power = instance.powerState(now);
        statuses.addObject().put("code", power.code()).put("level", "Info").put("displayStatus",
            power.displayStatus());
        if (power == PowerState.DEALLOCATED && instance.hibernated()) {
            // As Get-AzVM -Status shows a hibernated VM (Microsoft Learn, "Hibernating Linux virtual machines").
            statuses.addObject().put("code", "HibernationState/Hibernated").put("level", "Info")
                .put("displayStatus", "VM hibernated");
        }
        return view;
    }

    private static void commonProperties(ObjectNode properties, Instance instance) {
        JsonNode profile = instance.scaleSet().model().path("properties").path("virtualMachineProfile");
        ObjectNode os = properties.putObject("osProfile");
        os.put("computerName", instance.computerName());
        os.put("adminUsername", profile.path("osProfile").path("adminUsername").asText("azureuser"));
        if (profile.has("storageProfile")) {
            properties.set("storageProfile", profile.get("storageProfile").deepCopy());
        }
    }

    private static String provisioningState(Instance instance, Instant now) {
        if (instance.oddity() == Instance.Oddity.DELETING || instance.oddity() == Instance.Oddity.NAMELESS) {
            return "Deleting";
        }
        if (instance.failure() != null) {
            return "Failed";
        }
        return instance.isTransitioning(now) ? "Updating" : "Succeeded";
    }
}
