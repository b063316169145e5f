package io.hpcscale.cloud.azure.fake;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** A resource group: its tags, and the scale sets in it (names are case-insensitive, as in ARM). */
public final class ResourceGroup {
    private final String subscriptionId;
    private final String name;
    private final String location;
    private final Map<String, String> tags = new ConcurrentHashMap<>();
    private final Map<String, ScaleSet> scaleSets = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    ResourceGroup(String subscriptionId, String name, String location, Map<String, String> tags) {
        this.subscriptionId = subscriptionId;
        this.name = name;
        this.location = location;
        this.tags.putAll(tags);
    }

    public String name() {
        return name;
    }

    public String location() {
        return location;
    }

    public String subscriptionId() {
        return subscriptionId;
    }

    public String id() {
        return "/subscriptions/" + subscriptionId + "/resourceGroups/" + name;
    }

    public Map<String, String> tags() {
        return tags;
    }

    ScaleSet scaleSet(String scaleSetName) {
        return scaleSets.get(scaleSetName);
    }

    Collection<ScaleSet> scaleSets() {
        return scaleSets.values();
    }

    void put(ScaleSet scaleSet) {
        scaleSets.put(scaleSet.name(), scaleSet);
    }

    void remove(ScaleSet scaleSet) {
        scaleSets.remove(scaleSet.name());
    }
}
