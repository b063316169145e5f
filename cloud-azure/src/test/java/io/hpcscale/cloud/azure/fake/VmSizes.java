package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The resource SKUs the subscription sees: a few HPC, GPU and general sizes in every region the fake knows,
 * each with the capabilities a provider reads (vCPUs, MemoryGB, GPUs) and any restriction a test adds.
 */
public final class VmSizes {
    /**
     * One VM size. {@code family} is the quota family named in quota errors; {@code vCpusPerCore} the SKU's
     * {@code vCPUsPerCore} capability (2 where the series is hyper-threaded, 1 where SMT is off, as Microsoft Learn's
     * size pages for Dsv5, Fsv2, HBv3, HBv4 and HC say), 0 where the fake leaves it out.
     */
    public record Size(String name, String family, int vCpus, double memoryGb, int gpus, boolean rdma,
            int vCpusPerCore) {
    }

    private static final Pattern LOCATION_FILTER =
        Pattern.compile("^\\s*location\\s+eq\\s+'([^']+)'\\s*$", Pattern.CASE_INSENSITIVE);

    private final Map<String, Size> sizes = new LinkedHashMap<>();
    private final List<String> locations = new ArrayList<>(List.of("eastus", "southcentralus", "westeurope"));
    private final Set<String> restricted = new HashSet<>();

    VmSizes() {
        add(new Size("Standard_HB120rs_v3", "standardHBrsv3Family", 120, 448, 0, true, 1));
        add(new Size("Standard_HB176rs_v4", "standardHBv4Family", 176, 768, 0, true, 1));
        add(new Size("Standard_HC44rs", "standardHCSFamily", 44, 352, 0, true, 1));
        add(new Size("Standard_ND96asr_v4", "standardNDASv4_A100Family", 96, 900, 8, true, 0));
        add(new Size("Standard_NC24ads_A100_v4", "StandardNCADSA100v4Family", 24, 220, 1, false, 0));
        add(new Size("Standard_D4s_v5", "standardDSv5Family", 4, 16, 0, false, 2));
        add(new Size("Standard_F72s_v2", "standardFSv2Family", 72, 144, 0, false, 2));
    }

    public synchronized VmSizes add(Size size) {
        sizes.put(size.name().toLowerCase(), size);
        return this;
    }

    public synchronized VmSizes addLocation(String location) {
        if (!locations.contains(location)) {
            locations.add(location);
        }
        return this;
    }

    /** Marks the size NotAvailableForSubscription in that location, as capacity-constrained regions show. */
    public synchronized VmSizes restrict(String size, String location) {
        restricted.add(key(size, location));
        return this;
    }

    public synchronized VmSizes unrestrict(String size, String location) {
        restricted.remove(key(size, location));
        return this;
    }

    public synchronized Size size(String name) {
        return sizes.get(name.toLowerCase());
    }

    /** Every SKU entry, or those of one location for {@code $filter=location eq '<loc>'}. */
    synchronized List<ObjectNode> list(String filter) {
        List<String> where = locations;
        if (filter != null && !filter.isBlank()) {
            Matcher m = LOCATION_FILTER.matcher(filter);
            if (!m.matches()) {
                throw ArmException.badRequest("InvalidFilter",
                    "The filter '" + filter + "' is not supported. Supported filter: location eq '<location>'.",
                    "$filter");
            }
            where = List.of(m.group(1).toLowerCase());
        }
        List<ObjectNode> entries = new ArrayList<>();
        for (String location : where) {
            for (Size size : sizes.values()) {
                entries.add(toJson(size, location));
            }
        }
        return entries;
    }

    private ObjectNode toJson(Size size, String location) {
        ObjectNode sku = Json.object();
        sku.put("resourceType", "virtualMachines");
        sku.put("name", size.name());
        sku.put("tier", "Standard");
        sku.put("size", size.name().substring("Standard_".length()));
        sku.put("family", size.family());
        sku.putArray("locations").add(location);
        ObjectNode info = sku.putArray("locationInfo").addObject();
        info.put("location", location);
        info.putArray("zones").add("1").add("2").add("3");
        info.putArray("zoneDetails");
        ArrayNode capabilities = sku.putArray("capabilities");
        capability(capabilities, "vCPUs", Integer.toString(size.vCpus()));
        capability(capabilities, "vCPUsAvailable", Integer.toString(size.vCpus()));
        capability(capabilities, "MemoryGB", formatGb(size.memoryGb()));
        if (size.gpus() > 0) {
            capability(capabilities, "GPUs", Integer.toString(size.gpus()));
        }
        if (size.vCpusPerCore() > 0) {
            capability(capabilities, "vCPUsPerCore", Integer.toString(size.vCpusPerCore()));
        }
        capability(capabilities, "LowPriorityCapable", "True");
        capability(capabilities, "RdmaEnabled", size.rdma() ? "True" : "False");
        capability(capabilities, "AcceleratedNetworkingEnabled", "True");
        capability(capabilities, "HyperVGenerations", "V1,V2");
        ArrayNode restrictions = sku.putArray("restrictions");
        if (restricted.contains(key(size.name(), location))) {
            ObjectNode r = restrictions.addObject();
            r.put("type", "Location");
            r.putArray("values").add(location);
            r.putObject("restrictionInfo").putArray("locations").add(location);
            r.put("reasonCode", "NotAvailableForSubscription");
        }
        return sku;
    }

    private static void capability(ArrayNode capabilities, String name, String value) {
        capabilities.addObject().put("name", name).put("value", value);
    }

    private static String formatGb(double gb) {
        return gb == Math.rint(gb) ? Long.toString((long) gb) : Double.toString(gb);
    }

    private static String key(String size, String location) {
        return size.toLowerCase() + "@" + location.toLowerCase();
    }
}
