package io.hpcscale.scaler.pool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Hourly prices of VM sizes as Azure's Retail Prices API lists them (learn.microsoft.com, "Azure Retail Prices
 * overview": {@code Items} of {@code armSkuName}, {@code armRegionName}, {@code retailPrice}, {@code unitOfMeasure},
 * {@code type}, {@code skuName}, {@code productName}), kept in a file that {@code hpcscale-scaler prices} writes and
 * an administrator refreshes when prices change. Only pay-as-you-go Linux prices per hour are kept: the
 * {@code Consumption} meters of products not named Windows, per hour; a size's Spot price is its meter whose
 * {@code skuName} ends in {@code Spot}; Low Priority meters (Batch's) are left out.
 */
public final class PriceList {
    public static final PriceList NONE = new PriceList(Map.of());
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Key(String vmSize, String region, boolean spot) {
    }

    private final Map<Key, Double> prices;

    private PriceList(Map<Key, Double> prices) {
        this.prices = Map.copyOf(prices);
    }

    /** @throws IOException naming the file when it cannot be read or is not a price list */
    public static PriceList read(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new IOException(file + " does not exist: write it with hpcscale-scaler prices --region <region>");
        }
        JsonNode json;
        try {
            json = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new IOException(file + " cannot be read as JSON (" + e.getMessage() + "): write it again with "
                    + "hpcscale-scaler prices --region <region>");
        }
        if (json == null || !json.path("Items").isArray()) {
            throw new IOException(file + " is not a price list (no \"Items\" array): write it again with "
                    + "hpcscale-scaler prices --region <region>");
        }
        return of(json.path("Items"));
    }

    /** The Linux pay-as-you-go hourly prices among these items of the Retail Prices API. */
    public static PriceList of(JsonNode items) {
        Map<Key, Double> prices = new HashMap<>();
        for (JsonNode item : items) {
            String size = item.path("armSkuName").asText("");
            String skuName = item.path("skuName").asText("");
            if (size.isEmpty() || !"Consumption".equals(item.path("type").asText())
                    || !"1 Hour".equals(item.path("unitOfMeasure").asText())
                    || item.path("productName").asText("").contains("Windows") || skuName.endsWith("Low Priority")
                    || !item.path("retailPrice").isNumber()) {
                continue;
            }
            prices.put(new Key(size.toLowerCase(Locale.ROOT), item.path("armRegionName").asText("")
                    .toLowerCase(Locale.ROOT), skuName.endsWith("Spot")), item.path("retailPrice").asDouble());
        }
        return new PriceList(prices);
    }

    public Optional<Double> price(String vmSize, String region, boolean spot) {
        if (vmSize == null || region == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(prices.get(new Key(vmSize.toLowerCase(Locale.ROOT), region.toLowerCase(Locale.ROOT),
                spot)));
    }

    public int size() {
        return prices.size();
    }

    /** Writes items as the file {@link #read} reads, replacing the old one only once the new one is whole. */
    public static void write(Path file, JsonNode items) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        Path temporary = Files.createTempFile(parent, ".prices", ".json");
        try {
            JSON.writeValue(temporary.toFile(), JSON.createObjectNode().set("Items", items));
            Files.move(temporary, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
