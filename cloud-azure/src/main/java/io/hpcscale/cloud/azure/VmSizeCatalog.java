package io.hpcscale.cloud.azure;

import com.azure.core.util.Context;
import com.azure.resourcemanager.compute.fluent.models.ResourceSkuInner;
import com.azure.resourcemanager.compute.models.ResourceSkuCapabilities;
import com.azure.resourcemanager.compute.models.ResourceSkuRestrictions;
import com.azure.resourcemanager.compute.models.ResourceSkuRestrictionsType;
import io.hpcscale.scaler.pool.VmShape;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * VM sizes as the subscription's resource SKUs describe them, read once per subscription and region (one paged
 * listing filtered to the region) and kept for the life of the process: sizes do not change under a running scaler.
 */
final class VmSizeCatalog {
    /** Memory a VM's operating system keeps: the scheduler reports a node with about this much less. */
    static final double OS_MEMORY_SHARE = 0.05;

    /**
     * One size's resources.
     *
     * @param vCpus      the vCPUs its OS sees (fewer than quotaVcpus for constrained-core sizes)
     * @param quotaVcpus the vCPUs the size counts against the family's quota
     * @param restricted why the subscription may not use the size anywhere in the region (the SKU's location
     *                   restriction, e.g. {@code NotAvailableForSubscription}), or null: asking for it again is
     *                   pointless until the subscription's access changes
     * @param family     the quota family ({@code standardHBrsv3Family}), or null
     * @param cores      physical cores: vCPUs over the SKU's {@code vCPUsPerCore}, or the vCPUs when it says none
     * @param rdma       the size has InfiniBand (the SKU's {@code RdmaEnabled})
     */
    record Size(String name, int vCpus, int quotaVcpus, double memoryGb, int gpus, String restricted, String family,
            int cores, boolean rdma) {
        VmShape shape() {
            long mib = (long) Math.floor(memoryGb * 1024 * (1 - OS_MEMORY_SHARE));
            return new VmShape(vCpus, mib, gpus);
        }
    }

    private final AzureClients clients;
    private final Map<String, Map<String, Size>> byRegion = new ConcurrentHashMap<>();

    VmSizeCatalog(AzureClients clients) {
        this.clients = clients;
    }

    /** @throws RuntimeException the SDK's, when the SKUs cannot be read */
    Optional<Size> size(String subscriptionId, String location, String vmSize) {
        Map<String, Size> sizes = byRegion.computeIfAbsent(subscriptionId + "/" + location.toLowerCase(Locale.ROOT),
                key -> read(subscriptionId, location));
        return Optional.ofNullable(sizes.get(vmSize.toLowerCase(Locale.ROOT)));
    }

    /** The size as already read, or null: never a call. */
    VmSizeCatalog.Size known(String subscriptionId, String location, String vmSize) {
        Map<String, Size> sizes = location == null ? null
                : byRegion.get(subscriptionId + "/" + location.toLowerCase(Locale.ROOT));
        return sizes == null || vmSize == null ? null : sizes.get(vmSize.toLowerCase(Locale.ROOT));
    }

    /** The size's vCPUs counted against quota, when already read; 0 when not known. */
    int knownVcpus(String subscriptionId, String location, String vmSize) {
        Map<String, Size> sizes = byRegion.get(subscriptionId + "/" + location.toLowerCase(Locale.ROOT));
        Size size = sizes == null || vmSize == null ? null : sizes.get(vmSize.toLowerCase(Locale.ROOT));
        return size == null ? 0 : size.quotaVcpus();
    }

    private Map<String, Size> read(String subscriptionId, String location) {
        Map<String, Size> sizes = new HashMap<>();
        for (ResourceSkuInner sku : clients.compute(subscriptionId).serviceClient().getResourceSkus()
                .list("location eq '" + location + "'", null, Context.NONE)) {
            if (!"virtualMachines".equalsIgnoreCase(sku.resourceType()) || sku.name() == null) {
                continue;
            }
            Map<String, String> capabilities = new HashMap<>();
            if (sku.capabilities() != null) {
                for (ResourceSkuCapabilities c : sku.capabilities()) {
                    capabilities.put(c.name(), c.value());
                }
            }
            int quotaVcpus = (int) number(capabilities.get("vCPUs"), 0);
            int vCpus = (int) number(capabilities.get("vCPUsAvailable"), quotaVcpus);
            double memory = number(capabilities.get("MemoryGB"), 0);
            int gpus = (int) number(capabilities.get("GPUs"), 0);
            int perCore = (int) number(capabilities.get("vCPUsPerCore"), 1);
            if (vCpus > 0) {
                sizes.put(sku.name().toLowerCase(Locale.ROOT), new Size(sku.name(), vCpus, quotaVcpus, memory, gpus,
                        locationRestriction(sku, location), sku.family(), vCpus / Math.max(1, perCore),
                        "True".equalsIgnoreCase(capabilities.get("RdmaEnabled"))));
            }
        }
        return Map.copyOf(sizes);
    }

    /** The reason of a restriction covering the whole region, or null when the size may be used there. */
    private static String locationRestriction(ResourceSkuInner sku, String location) {
        if (sku.restrictions() == null) {
            return null;
        }
        for (ResourceSkuRestrictions restriction : sku.restrictions()) {
            if (ResourceSkuRestrictionsType.LOCATION.equals(restriction.type())) {
                String reason = restriction.reasonCode() == null ? "restricted"
                        : restriction.reasonCode().toString();
                return reason + " in " + location;
            }
        }
        return null;
    }

    private static double number(String value, double otherwise) {
        if (value == null) {
            return otherwise;
        }
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
