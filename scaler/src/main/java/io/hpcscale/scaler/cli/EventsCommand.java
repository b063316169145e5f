package io.hpcscale.scaler.cli;

import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.config.Durations;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.PoolChanges;
import io.hpcscale.common.store.StoreFactory;
import io.hpcscale.scaler.documents.EventDocument;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * The audit trail: every action and refusal the scaler recorded, oldest first. The store keeps them for
 * {@code scaler.eventTtl} (7 days by default). With {@code --follow} it keeps printing new ones until interrupted.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "events",
        description = "Print the scaler's actions and refusals: time, pool, action, instances, outcome, reason.")
final class EventsCommand implements Callable<Integer> {
    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    @Option(names = "--pool", paramLabel = "POOL", description = "Only this pool's events.")
    private String pool;

    @Option(names = "--since", paramLabel = "DURATION", defaultValue = "1h",
            description = "Only events this recent: 90s, 30m, 1h, 7d (default: ${DEFAULT-VALUE}).")
    private String since;

    @Option(names = "--follow", description = "Keep printing new events as they are recorded, until interrupted.")
    private boolean follow;

    @Option(names = "--follow-interval", paramLabel = "DURATION", defaultValue = "5s",
            description = "How often --follow reads the store (default: ${DEFAULT-VALUE}).")
    private String followInterval;

    @Option(names = "--json", description = "One JSON object per line, as stored.")
    private boolean json;

    @Override
    public Integer call() throws InterruptedException {
        Duration window = duration("--since", since);
        Duration every = duration("--follow-interval", followInterval);
        Settings settings = root.loadSettings();
        Clock clock = Clock.systemUTC();
        PrintWriter out = spec.commandLine().getOut();
        try (ClusterLoadStore store = StoreFactory.openForReading(settings, clock)) {
            DocumentStore documents = new DocumentStore(store);
            Set<String> printed = new HashSet<>();
            Instant from = clock.instant().minus(window);
            long position = PoolChanges.START;
            do {
                PoolChanges changes = store.eventsSince(pool, from, position);
                position = changes.position();
                for (EventDocument event : sorted(documents, changes)) {
                    if (!event.at().isBefore(from) && printed.add(event.poolName() + "/" + event.id())) {
                        out.println(json ? documents.codec().encode(event).toString() : line(event));
                    }
                }
                out.flush();
                if (follow) {
                    Thread.sleep(every.toMillis());
                }
            } while (follow);
        }
        return 0;
    }

    /** The events of a read, oldest first; each poll of {@code --follow} reads only those written since the last. */
    private static List<EventDocument> sorted(DocumentStore documents, PoolChanges changes) {
        return documents.decode(changes.documents()).stream().filter(EventDocument.class::isInstance)
                .map(EventDocument.class::cast)
                .sorted(Comparator.comparing(EventDocument::at).thenComparing(EventDocument::id)).toList();
    }

    static String line(EventDocument event) {
        return String.format("%s  %-12s %-18s %-24s %-9s %s", event.at(), event.poolName(), event.action(),
                event.instances().isEmpty() ? "-" : String.join(",", event.instances()),
                event.outcome() == null ? "-" : event.outcome(), event.reason() == null ? "" : event.reason());
    }

    private Duration duration(String option, String text) {
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), option + " " + text + " is not a duration: write it "
                    + "like 90s, 30m, 1h or 7d");
        }
    }
}
