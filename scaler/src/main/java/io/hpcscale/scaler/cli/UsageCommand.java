package io.hpcscale.scaler.cli;

import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.config.Durations;
import io.hpcscale.common.config.PoolSettings;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreFactory;
import io.hpcscale.scaler.documents.UsageDocument;
import io.hpcscale.scaler.pool.PriceFile;
import io.hpcscale.scaler.pool.PriceList;
import io.hpcscale.scaler.report.UsageReport;
import io.hpcscale.scaler.report.UsageRow;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * Instance-hours, busy hours, the idle share and the cost, from the usage the active scaler adds up every cycle
 * (one document per pool and UTC day, kept 400 days). Read-only.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "usage",
        description = "Report instance-hours per pool (or per day), the share of them idle, and their cost where "
                + "pool.<name>.pricePerHour is set, or scaler.priceList has the pool's vmSize in its node.location.")
final class UsageCommand implements Callable<Integer> {
    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    @Option(names = "--since", paramLabel = "DURATION", defaultValue = "30d",
            description = "The days to count, back from today (UTC): 1d is today only (default: ${DEFAULT-VALUE}).")
    private String since;

    @Option(names = "--by", paramLabel = "pool|day", defaultValue = "pool",
            description = "One row per pool or per day (default: ${DEFAULT-VALUE}).")
    private String by;

    @Option(names = "--csv", description = "Comma-separated values with a header line, for a spreadsheet.")
    private boolean csv;

    @Override
    public Integer call() {
        UsageReport.By grouping = switch (by) {
            case "pool" -> UsageReport.By.POOL;
            case "day" -> UsageReport.By.DAY;
            default -> throw new ParameterException(spec.commandLine(), "--by " + by + ": use pool or day");
        };
        Duration window;
        try {
            window = Durations.parse(since);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--since " + since + " is not a duration: write it "
                    + "like 1d, 7d or 30d");
        }
        Settings settings = root.loadSettings();
        Clock clock = Clock.systemUTC();
        LocalDate today = UsageDocument.dayOf(clock.instant());
        LocalDate from = today.minusDays(Math.max(0, window.toDays() - 1));
        List<UsageRow> rows;
        try (ClusterLoadStore store = StoreFactory.openForReading(settings, clock)) {
            rows = UsageReport.rows(new DocumentStore(store).all(DocumentType.USAGE, UsageDocument.class), from,
                    grouping, pricing(settings));
        }
        PrintWriter out = spec.commandLine().getOut();
        String first = grouping == UsageReport.By.POOL ? "pool" : "day";
        if (csv) {
            out.println(first + (grouping == UsageReport.By.POOL ? ",vm_size" : "")
                    + ",instance_hours,busy_hours,idle_share,cost");
            for (UsageRow row : rows) {
                out.println(row.key() + (grouping == UsageReport.By.POOL ? "," + row.vmSize() : "")
                        + String.format(Locale.ROOT, ",%.3f,%.3f,%.4f,%s", row.instanceHours(), row.busyHours(),
                        row.idleShare(), row.cost() == null ? "" : String.format(Locale.ROOT, "%.2f", row.cost())));
            }
        } else {
            out.printf("usage from %s to %s (UTC days)%n", from, today);
            out.printf("%-14s %-24s %12s %10s %6s %12s%n", first, grouping == UsageReport.By.POOL ? "vm size" : "",
                    "instance-h", "busy-h", "idle", "cost");
            for (UsageRow row : rows) {
                out.printf(Locale.ROOT, "%-14s %-24s %12.1f %10.1f %5.0f%% %12s%n", row.key(), row.vmSize(),
                        row.instanceHours(), row.busyHours(), 100 * row.idleShare(),
                        row.cost() == null ? "-" : String.format(Locale.ROOT, "%.2f", row.cost()));
            }
            if (rows.isEmpty()) {
                out.println("no usage recorded in these days: the scaler records it while it runs and holds the "
                        + "lease");
            }
        }
        out.flush();
        return 0;
    }

    /**
     * Each pool's size and price: {@code pricePerHour}, else the price list's for the {@code vmSize},
     * {@code node.location} and {@code node.spot} the settings give (usage calls no cloud to read them).
     */
    private static Map<String, UsageReport.PoolPricing> pricing(Settings settings) {
        PriceList list = settings.optionalString("scaler.priceList").map(file -> new PriceFile(Path.of(file)).get())
                .orElse(PriceList.NONE);
        Map<String, UsageReport.PoolPricing> pricing = new LinkedHashMap<>();
        for (String name : settings.poolNames()) {
            PoolSettings pool = settings.pool(name);
            String size = pool.optionalString("vmSize").orElseGet(() -> shape(pool));
            Optional<Double> price = settings.optionalDecimal(pool.key("pricePerHour")).or(() -> list.price(
                    pool.optionalString("vmSize").orElse(null), pool.optionalString("node.location").orElse(null),
                    pool.optionalString("node.spot").map(Boolean::parseBoolean).orElse(false)));
            pricing.put(name, new UsageReport.PoolPricing(size, price));
        }
        return pricing;
    }

    private static String shape(PoolSettings pool) {
        Optional<Long> cpus = pool.optionalInteger("cpus");
        return cpus.map(c -> c + " cpus" + pool.optionalInteger("memoryMb").map(m -> ", " + m / 1024 + " GB")
                .orElse("") + pool.optionalInteger("gpus").filter(g -> g > 0).map(g -> ", " + g + " GPUs")
                .orElse("")).orElse("-");
    }
}
