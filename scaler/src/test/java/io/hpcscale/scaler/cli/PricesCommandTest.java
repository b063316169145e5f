package io.hpcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.hpcscale.scaler.pool.PriceList;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code hpcscale-scaler prices} against a local imitation of Azure's Retail Prices API. The imitation answers as the
 * API's documentation shows it (learn.microsoft.com, "Azure Retail Prices overview": a page of {@code Items} with
 * {@code NextPageLink} to the next, null on the last; every meter of a VM size once per product and priority:
 * Linux and Windows products, Spot and Low Priority meters, per hour; the filter as an OData {@code $filter}).
 */
class PricesCommandTest {
    @TempDir
    Path dir;
    private HttpServer server;
    private final List<String> filters = new ArrayList<>();
    private int status = 200;

    private static String item(String size, String skuName, String product, double price) {
        return """
                {"currencyCode":"USD","tierMinimumUnits":0.0,"retailPrice":%s,"unitPrice":%s,\
                "armRegionName":"eastus","location":"US East","effectiveStartDate":"2024-01-01T00:00:00Z",\
                "meterName":"%s","productName":"%s","skuName":"%s","serviceName":"Virtual Machines",\
                "serviceFamily":"Compute","unitOfMeasure":"1 Hour","type":"Consumption",\
                "isPrimaryMeterRegion":true,"armSkuName":"%s"}""".formatted(price, price, skuName, product, skuName,
                size);
    }

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/retail/prices", exchange -> {
            String query = exchange.getRequestURI().getRawQuery();
            filters.add(URLDecoder.decode(query, StandardCharsets.UTF_8));
            String body;
            if (query.contains("skip=2")) {
                body = "{\"BillingCurrency\":\"USD\",\"Items\":[" + item("Standard_HB120rs_v3", "HB120rs v3",
                        "Virtual Machines HBv3 Series", 3.6) + "," + item("Standard_HB120rs_v3", "HB120rs v3 Spot",
                        "Virtual Machines HBv3 Series", 0.36) + "],\"NextPageLink\":null,\"Count\":2}";
            } else {
                String next = "http://127.0.0.1:" + server.getAddress().getPort() + "/api/retail/prices?" + query
                        + "&$skip=2";
                body = "{\"BillingCurrency\":\"USD\",\"Items\":[" + item("Standard_D4s_v5", "D4s v5",
                        "Virtual Machines Dsv5 Series", 0.192) + "," + item("Standard_D4s_v5", "D4s v5",
                        "Virtual Machines Dsv5 Series Windows", 0.376) + "," + item("Standard_D4s_v5",
                        "D4s v5 Low Priority", "Virtual Machines Dsv5 Series", 0.0384) + "],\"NextPageLink\":\""
                        + next + "\",\"Count\":3}";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, status == 200 ? bytes.length : -1);
            try (OutputStream out = exchange.getResponseBody()) {
                if (status == 200) {
                    out.write(bytes);
                }
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String[] run(String... args) throws IOException {
        Path config = dir.resolve("hpcscale.properties");
        Files.write(config, List.of("store.sqlite.path = " + dir.resolve("db"),
                "scaler.priceListUrl = http://127.0.0.1:" + server.getAddress().getPort() + "/api/retail/prices",
                "scaler.priceList = " + dir.resolve("prices.json"),
                "pool.sim.provider = simulated", "pool.sim.max = 1", "pool.sim.cpus = 4", "pool.sim.memoryMb = 8000"));
        CommandLine commandLine = ScalerMain.commandLine();
        StringWriter out = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(new StringWriter()));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--config", config.toString()));
        int code = commandLine.execute(all.toArray(String[]::new));
        return new String[] {Integer.toString(code), out.toString()};
    }

    @Test
    void writesTheLinuxPricesPerHourOfEveryPageAndKeepsSpotApart() throws Exception {
        String[] result = run("prices", "--region", "EastUS");
        assertEquals("0", result[0], result[1]);
        assertTrue(result[1].contains("eastus: 2 pages read"), result[1]);
        assertTrue(filters.get(0).contains("$filter=serviceName eq 'Virtual Machines' and priceType eq 'Consumption' "
                + "and armRegionName eq 'eastus'"), filters.toString());

        PriceList prices = PriceList.read(dir.resolve("prices.json"));
        assertEquals(Optional.of(0.192), prices.price("Standard_D4s_v5", "eastus", false), "Linux, not Windows");
        assertEquals(Optional.of(3.6), prices.price("standard_hb120rs_v3", "EastUS", false));
        assertEquals(Optional.of(0.36), prices.price("Standard_HB120rs_v3", "eastus", true));
        assertEquals(Optional.empty(), prices.price("Standard_D4s_v5", "eastus", true), "Low Priority is no Spot");
        assertEquals(3, prices.size());
    }

    @Test
    void aFailedRefreshLeavesTheOldFileAndSaysWhy() throws Exception {
        assertEquals("0", run("prices", "--region", "eastus")[0]);
        byte[] before = Files.readAllBytes(dir.resolve("prices.json"));
        status = 429;
        String[] result = run("prices", "--region", "eastus");
        assertEquals("1", result[0]);
        assertTrue(result[1].contains("is unchanged: the Retail Prices API throttled the read (429)"), result[1]);
        assertEquals(new String(before, StandardCharsets.UTF_8),
                Files.readString(dir.resolve("prices.json"), StandardCharsets.UTF_8));
    }
}
