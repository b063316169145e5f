package io.hpcscale.scaler.cloud.azure;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.PoolSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One azure pool's scale set and how its instances' nodes are named.
 *
 * @param targetTag the resource-group tag holding the pool's count when it has {@code target = fixed}, else null
 */
public record AzurePoolSettings(String pool, String subscriptionId, String resourceGroup, String scaleSet,
        boolean allowCreate, NodeNaming nodeNaming, String targetTag) {

    /** @throws ConfigException naming every setting the pool lacks or cannot use */
    public static AzurePoolSettings from(PoolSettings pool, AzureSettings azure) {
        List<String> problems = new ArrayList<>();
        Optional<String> subscription = pool.optionalString("azure.subscriptionId")
                .or(() -> Optional.ofNullable(azure.subscriptionId()));
        if (subscription.isEmpty()) {
            problems.add(pool.key("azure.subscriptionId") + " (or azure.subscriptionId for every pool) is required "
                    + "for " + pool.key("provider") + " = azure");
        }
        for (String key : List.of("azure.resourceGroup", "azure.scaleSet")) {
            if (pool.optionalString(key).isEmpty()) {
                problems.add(pool.key(key) + " is required for " + pool.key("provider") + " = azure");
            }
        }
        NodeNaming naming = null;
        try {
            naming = NodeNaming.parse(pool.string("azure.nodeName"));
        } catch (IllegalArgumentException e) {
            problems.add(pool.key("azure.nodeName") + "=" + pool.string("azure.nodeName") + ": " + e.getMessage());
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new AzurePoolSettings(pool.name(), subscription.get(), pool.string("azure.resourceGroup"),
                pool.string("azure.scaleSet"), pool.bool("azure.allowCreate"), naming,
                "fixed".equals(pool.string("target")) ? pool.string("targetTag") : null);
    }

    /** For messages: "scale set vmss-hb in resource group rg-hpc". */
    public String describe() {
        return "scale set " + scaleSet + " in resource group " + resourceGroup;
    }
}
