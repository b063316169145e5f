package io.hpcscale.cloud.azure;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.PoolSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One azure pool's scale set and how its instances' nodes are named.
 *
 * @param targetTag      the resource-group tag holding the pool's count when it has {@code target = fixed}, else null
 * @param vmsPerScaleSet 0 for a pool of one scale set; else the pool spans its scale set (the template) and scale
 *                       sets made from it, each grown to at most this many instances
 * @param sealAfter      a scale set asked to grow that has not reached the capacity asked within this is sealed
 * @param template       what new scale sets are deployed from (a template file or a template spec version's id),
 *                       or null
 * @param templateParameters the template's other parameters (an ARM parameters file), or null
 * @param standbyPool    the standby pool kept beside the scale set, or null
 */
public record AzurePoolSettings(String pool, String subscriptionId, String resourceGroup, String scaleSet,
        boolean allowCreate, NodeNaming nodeNaming, String targetTag, int vmsPerScaleSet, Duration sealAfter,
        String template, Path templateParameters, StandbyPoolSettings standbyPool) {

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
        if (pool.intValue("azure.vmsPerScaleSet") > 0 && !pool.bool("azure.allowCreate")) {
            problems.add(pool.key("azure.vmsPerScaleSet") + " = " + pool.intValue("azure.vmsPerScaleSet") + " needs "
                    + pool.key("azure.allowCreate") + " = true: a pool spans several scale sets by growing them and "
                    + "making new ones");
        }
        if (pool.intValue("azure.vmsPerScaleSet") > 0 && pool.optionalString("azure.template").isEmpty()) {
            problems.add(pool.key("azure.vmsPerScaleSet") + " = " + pool.intValue("azure.vmsPerScaleSet") + " needs "
                    + pool.key("azure.template") + ": the ARM template file or template spec that new scale sets are "
                    + "deployed from (docs/running-on-azure.md)");
        }
        if (pool.optionalString("azure.templateParameters").isPresent()
                && pool.optionalString("azure.template").isEmpty()) {
            problems.add(pool.key("azure.templateParameters") + " is set without " + pool.key("azure.template")
                    + ": set the template too, or remove it");
        }
        Optional<StandbyPoolSettings> standbyPool = StandbyPoolSettings.from(pool, problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new AzurePoolSettings(pool.name(), subscription.get(), pool.string("azure.resourceGroup"),
                pool.string("azure.scaleSet"), pool.bool("azure.allowCreate"), naming,
                "fixed".equals(pool.string("target")) ? pool.string("targetTag") : null,
                pool.intValue("azure.vmsPerScaleSet"), pool.duration("azure.sealAfter"),
                pool.optionalString("azure.template").orElse(null),
                pool.optionalString("azure.templateParameters").map(Path::of).orElse(null),
                standbyPool.orElse(null));
    }

    /** The same pool's settings for another of its scale sets. */
    AzurePoolSettings withScaleSet(String name) {
        return new AzurePoolSettings(pool, subscriptionId, resourceGroup, name, allowCreate, nodeNaming, targetTag,
                vmsPerScaleSet, sealAfter, template, templateParameters, standbyPool);
    }

    /** For messages: "scale set vmss-hb in resource group rg-hpc". */
    public String describe() {
        return "scale set " + scaleSet + " in resource group " + resourceGroup;
    }
}
