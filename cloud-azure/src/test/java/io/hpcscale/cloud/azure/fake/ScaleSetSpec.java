package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a test wants in a scale set, turned into the model a real one would have: the profile a deployment
 * template would give an HPC pool (image, disk, accelerated networking), so GETs look like Azure's.
 */
public final class ScaleSetSpec {
    private final String resourceGroup;
    private final String name;
    private final OrchestrationMode mode;
    private String location;
    private String sku = "Standard_HB120rs_v3";
    private int instances;
    private PowerState initialState = PowerState.RUNNING;
    private String computerNamePrefix;
    private Boolean singlePlacementGroup;
    private boolean overprovision;
    private String priority = "Regular";
    private String evictionPolicy;
    private boolean hibernationEnabled;
    private final Map<String, String> tags = new LinkedHashMap<>();
    private final Map<String, String> instanceTags = new LinkedHashMap<>();

    private ScaleSetSpec(String resourceGroup, String name, OrchestrationMode mode) {
        this.resourceGroup = resourceGroup;
        this.name = name;
        this.mode = mode;
        this.computerNamePrefix = name;
    }

    public static ScaleSetSpec uniform(String resourceGroup, String name) {
        return new ScaleSetSpec(resourceGroup, name, OrchestrationMode.UNIFORM);
    }

    public static ScaleSetSpec flexible(String resourceGroup, String name) {
        return new ScaleSetSpec(resourceGroup, name, OrchestrationMode.FLEXIBLE);
    }

    /** Defaults to the resource group's location. */
    public ScaleSetSpec location(String location) {
        this.location = location;
        return this;
    }

    public ScaleSetSpec sku(String sku) {
        this.sku = sku;
        return this;
    }

    /** {@code count} instances, all in {@code state} (settled, no transition pending). */
    public ScaleSetSpec instances(int count, PowerState state) {
        this.instances = count;
        this.initialState = state;
        return this;
    }

    public ScaleSetSpec computerNamePrefix(String prefix) {
        this.computerNamePrefix = prefix;
        return this;
    }

    public ScaleSetSpec singlePlacementGroup(boolean single) {
        this.singlePlacementGroup = single;
        return this;
    }

    /**
     * Uniform: overprovision as Azure does by default. Off unless asked: what hpcscale requires of a scale set
     * (the default of a scale set made without saying is true; see {@link ScaleSet#overprovisions()}).
     */
    public ScaleSetSpec overprovision(boolean on) {
        this.overprovision = on;
        return this;
    }

    /** Spot with an eviction policy, "Deallocate" or "Delete". */
    public ScaleSetSpec spot(String evictionPolicy) {
        this.priority = "Spot";
        this.evictionPolicy = evictionPolicy;
        return this;
    }

    /** {@code properties.additionalCapabilities.hibernationEnabled}, which its VMs take when they are made. */
    public ScaleSetSpec hibernationEnabled(boolean enabled) {
        this.hibernationEnabled = enabled;
        return this;
    }

    public ScaleSetSpec tag(String key, String value) {
        tags.put(key, value);
        return this;
    }

    /** A tag every initial instance carries. */
    public ScaleSetSpec instanceTag(String key, String value) {
        instanceTags.put(key, value);
        return this;
    }

    String resourceGroup() {
        return resourceGroup;
    }

    String name() {
        return name;
    }

    OrchestrationMode mode() {
        return mode;
    }

    int instances() {
        return instances;
    }

    PowerState initialState() {
        return initialState;
    }

    Map<String, String> instanceTags() {
        return instanceTags;
    }

    ObjectNode toModel(String defaultLocation) {
        ObjectNode model = Json.object();
        model.put("location", location == null ? defaultLocation : location);
        model.set("tags", Json.tags(tags));
        model.putObject("sku").put("name", sku).put("tier", "Standard").put("capacity", 0);
        ObjectNode properties = model.putObject("properties");
        properties.put("orchestrationMode", mode.armValue());
        properties.put("singlePlacementGroup",
            singlePlacementGroup != null ? singlePlacementGroup : mode == OrchestrationMode.UNIFORM);
        if (mode == OrchestrationMode.UNIFORM) {
            properties.putObject("upgradePolicy").put("mode", "Manual");
            properties.put("overprovision", overprovision);
        } else {
            properties.put("platformFaultDomainCount", 1);
        }
        if (hibernationEnabled) {
            properties.putObject("additionalCapabilities").put("hibernationEnabled", true);
        }
        ObjectNode profile = properties.putObject("virtualMachineProfile");
        ObjectNode os = profile.putObject("osProfile");
        os.put("computerNamePrefix", computerNamePrefix).put("adminUsername", "hpcadmin");
        os.putObject("linuxConfiguration").put("disablePasswordAuthentication", true)
            .putObject("ssh").putArray("publicKeys").addObject()
            .put("path", "/home/hpcadmin/.ssh/authorized_keys")
            .put("keyData", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestsOnly hpcadmin");
        ObjectNode storage = profile.putObject("storageProfile");
        storage.putObject("imageReference").put("publisher", "microsoft-dsvm").put("offer", "ubuntu-hpc")
            .put("sku", "2204").put("version", "latest");
        storage.putObject("osDisk").put("createOption", "FromImage").put("caching", "ReadWrite")
            .putObject("managedDisk").put("storageAccountType", "Premium_LRS");
        ObjectNode nic = profile.putObject("networkProfile").putArray("networkInterfaceConfigurations").addObject();
        nic.put("name", name + "-nic");
        ObjectNode nicProperties = nic.putObject("properties").put("primary", true)
            .put("enableAcceleratedNetworking", true);
        nicProperties.putArray("ipConfigurations").addObject().put("name", name + "-ip")
            .putObject("properties").putObject("subnet")
            .put("id", "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/" + resourceGroup
                + "/providers/Microsoft.Network/virtualNetworks/hpc-vnet/subnets/compute");
        if (mode == OrchestrationMode.FLEXIBLE) {
            profile.withObjectProperty("networkProfile").put("networkApiVersion", "2020-11-01");
        }
        profile.put("priority", priority);
        if ("Spot".equals(priority)) {
            profile.put("evictionPolicy", evictionPolicy);
            profile.putObject("billingProfile").put("maxPrice", -1);
        }
        return model;
    }
}
