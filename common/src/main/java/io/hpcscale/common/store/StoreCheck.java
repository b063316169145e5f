package io.hpcscale.common.store;

import io.hpcscale.common.config.Settings;
import io.hpcscale.common.model.ChangeMarkerDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code check} (the scaler's and the agents') says about the store, reading only: whether it answers, and what
 * in its own setup is wrong or costs more than it should (on Cosmos DB: partition key, time to live, indexing), each
 * naming the command that fixes it.
 */
public final class StoreCheck {
    /** One line of the check: ok or a problem. */
    public record Finding(boolean ok, String sentence) {
    }

    private StoreCheck() {
    }

    public static List<Finding> run(Settings settings, Clock clock) {
        if ("sqlite".equals(settings.string("store.type"))) {
            Path file = Path.of(settings.string("store.sqlite.path"));
            if (!Files.exists(file)) {
                Path directory = file.toAbsolutePath().getParent();
                return List.of(Files.isWritable(directory)
                        ? new Finding(true, "store: " + file + " does not exist yet; the first agent or scaler to "
                                + "run makes it")
                        : new Finding(false, "store: " + file + " does not exist, and this user may not make it in "
                                + directory + " (store.sqlite.path)"));
            }
        }
        try (ClusterLoadStore store = StoreFactory.openForReading(settings, clock)) {
            store.read(ChangeMarkerDocument.DRAINS_KEY);
            List<Finding> findings = new ArrayList<>();
            findings.add(new Finding(true, "store: " + store.describe() + " answers"));
            store.setupProblems().forEach(problem -> findings.add(new Finding(false, "store: " + problem)));
            return findings;
        } catch (StoreException e) {
            return List.of(new Finding(false, "store: " + e.getMessage()));
        }
    }
}
