package io.hpcscale.cloud.azure;

import com.azure.resourcemanager.resources.fluent.TagOperationsClient;
import com.azure.resourcemanager.resources.fluent.models.TagsResourceInner;
import com.azure.resourcemanager.resources.models.Tags;
import com.azure.resourcemanager.resources.models.TagsPatchOperation;
import com.azure.resourcemanager.resources.models.TagsPatchResource;
import io.hpcscale.scaler.fixed.TargetSource;
import io.hpcscale.scaler.fixed.TargetUnavailableException;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A fixed pool's target in a tag of its resource group ({@code TOTAL_NODES} by default), where render-farm tools keep
 * it: one GET of the group's tags per cycle; a change merges that one tag, so the group's other tags stay. Azure
 * compares tag names without case, and so does this.
 */
public final class ResourceGroupTagTarget implements TargetSource {
    private final AzureClients clients;
    private final AzurePoolSettings pool;
    private final String tag;

    /** @param pool a pool of {@code target = fixed}, whose {@link AzurePoolSettings#targetTag()} is set */
    public ResourceGroupTagTarget(AzureClients clients, AzurePoolSettings pool) {
        this.clients = clients;
        this.pool = pool;
        this.tag = Objects.requireNonNull(pool.targetTag(), "the pool has no target tag");
    }

    @Override
    public OptionalInt read() throws TargetUnavailableException {
        TagsResourceInner tags;
        try {
            tags = tagOperations().getAtScope(scope());
        } catch (RuntimeException e) {
            throw new TargetUnavailableException(ArmErrors.map("read the tags of resource group "
                    + pool.resourceGroup(), e, 0).getMessage(), e);
        }
        Map<String, String> values = tags == null || tags.properties() == null || tags.properties().tags() == null
                ? Map.of() : tags.properties().tags();
        for (Map.Entry<String, String> entry : values.entrySet()) {
            if (entry.getKey().equalsIgnoreCase(tag)) {
                return OptionalInt.of(parse(entry.getValue()));
            }
        }
        return OptionalInt.empty();
    }

    @Override
    public void write(int count, String setBy) throws TargetUnavailableException {
        TagsPatchResource merge = new TagsPatchResource().withOperation(TagsPatchOperation.MERGE)
                .withProperties(new Tags().withTags(Map.of(tag, Integer.toString(count))));
        try {
            tagOperations().updateAtScope(scope(), merge);
        } catch (RuntimeException e) {
            throw new TargetUnavailableException(ArmErrors.map("set tag " + tag + " of resource group "
                    + pool.resourceGroup() + " to " + count, e, 0).getMessage(), e);
        }
    }

    @Override
    public String describe() {
        return "tag " + tag + " of resource group " + pool.resourceGroup();
    }

    private int parse(String value) throws TargetUnavailableException {
        String text = value == null ? "" : value.trim();
        try {
            int count = Integer.parseInt(text);
            if (count >= 0) {
                return count;
            }
        } catch (NumberFormatException e) {
            // Said below, with what to do.
        }
        throw new TargetUnavailableException(describe() + " is '" + text + "', not a count of instances: set it "
                + "to a whole number, e.g. with hpcscale-scaler set-capacity " + pool.pool() + " <n>");
    }

    private TagOperationsClient tagOperations() {
        return clients.compute(pool.subscriptionId()).resourceManager().serviceClient().getTagOperations();
    }

    private String scope() {
        return "/subscriptions/" + pool.subscriptionId() + "/resourceGroups/" + pool.resourceGroup();
    }
}
