package io.hpcscale.scaler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.pool.PriceList;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * Writes the price list ({@code scaler.priceList}) from Azure's Retail Prices API: the pay-as-you-go VM meters of the
 * regions given, every page followed ({@code NextPageLink}). The API needs no sign-in; the file is replaced only once
 * the new one is whole, so a failed refresh keeps the old prices. Exits 1 when the API cannot be read.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "prices",
        description = "Refresh the VM price list (scaler.priceList) from Azure's Retail Prices API.")
final class PricesCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A bound on pages, far above the few a region's VM meters take, so a looping link cannot run for ever. */
    private static final int MAX_PAGES = 1000;

    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    @Option(names = "--region", required = true, paramLabel = "REGION",
            description = "An Azure region whose prices to keep (eastus); repeat for several.")
    private List<String> regions;

    @Option(names = "--output", paramLabel = "FILE", description = "Where to write; default: scaler.priceList.")
    private Path output;

    @Override
    public Integer call() throws InterruptedException {
        Settings settings = root.loadSettings();
        PrintWriter out = spec.commandLine().getOut();
        Path file = output != null ? output : settings.optionalString("scaler.priceList").map(Path::of).orElse(null);
        if (file == null) {
            out.println("no file to write: set scaler.priceList, or give --output FILE");
            out.flush();
            return 1;
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(20))
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        ArrayNode items = JSON.createArrayNode();
        try {
            for (String given : regions) {
                String region = given.strip().toLowerCase(Locale.ROOT);
                int pages = read(http, firstPage(settings.string("scaler.priceListUrl"), region), items);
                out.printf("%s: %d pages read%n", region, pages);
            }
            PriceList.write(file, items);
        } catch (IOException e) {
            out.printf("the price list was not refreshed, %s is unchanged: %s%n", file, e.getMessage());
            out.flush();
            return 1;
        }
        out.printf("%s: %d VM prices per hour (Linux, pay-as-you-go and Spot) of %d meters read%n", file,
                PriceList.of(items).size(), items.size());
        out.flush();
        return 0;
    }

    private static URI firstPage(String base, String region) {
        String filter = "serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and armRegionName eq '"
                + region + "'";
        return URI.create(base + (base.contains("?") ? "&" : "?") + "$filter="
                + URLEncoder.encode(filter, StandardCharsets.UTF_8).replace("+", "%20"));
    }

    private static int read(HttpClient http, URI first, ArrayNode items) throws IOException, InterruptedException {
        URI next = first;
        int pages = 0;
        while (next != null) {
            if (++pages > MAX_PAGES) {
                throw new IOException("more than " + MAX_PAGES + " pages from " + first + ": stopped");
            }
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(next).timeout(Duration.ofSeconds(60))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 429) {
                throw new IOException("the Retail Prices API throttled the read (429): try again in a minute");
            }
            if (response.statusCode() != 200) {
                throw new IOException(next + " answered " + response.statusCode());
            }
            JsonNode page = JSON.readTree(response.body());
            if (page == null || !page.path("Items").isArray()) {
                throw new IOException(next + " answered without an \"Items\" array: is it the Retail Prices API?");
            }
            page.path("Items").forEach(items::add);
            String link = page.path("NextPageLink").asText(null);
            next = link == null || link.isBlank() ? null : URI.create(link);
        }
        return pages;
    }
}
