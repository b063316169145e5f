package io.hpcscale.scaler.cli;

import io.hpcscale.common.cli.Cli;
import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.EtagConflictException;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.common.store.StoreFactory;
import io.hpcscale.scaler.documents.BootHealth;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.run.PoolResume;
import io.hpcscale.scaler.run.ScalerEvents;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * Resumes a pool protected after its boots kept failing: the running scaler starts instances for its jobs again at
 * its next cycle. Run it once the cause is fixed (the image, the size, the region); if boots fail again, the pool is
 * protected again after {@code protectAfter} of them.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "resume",
        description = "Resume a pool protected after too many failed boots.")
final class ResumeCommand implements Callable<Integer> {
    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "POOL", description = "The pool, as named in pool.<name>.* settings.")
    private String poolName;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Settings settings = root.loadSettings();
        Set<String> pools = PoolConfigs.fromSettings(settings).keySet();
        if (!pools.contains(poolName)) {
            err.println("no pool " + poolName + " is configured; the pools are: " + String.join(", ", pools));
            err.flush();
            return Cli.FAILURE;
        }
        Clock clock = Clock.systemUTC();
        try (ClusterLoadStore store = StoreFactory.open(settings, clock)) {
            DocumentStore documents = new DocumentStore(store);
            Optional<BootHealth> was = PoolResume.resume(documents, poolName, new ScalerEvents(documents,
                    settings.duration("scaler.eventTtl"), true), clock.instant(), "hpcscale-scaler resume on "
                    + ThisHost.name());
            if (was.isEmpty()) {
                out.printf("pool %s is not protected: nothing to resume%n", poolName);
            } else {
                out.printf("pool %s resumed (protected since %s after %d failed boots in a row; the last: %s); the "
                        + "scaler starts instances for its jobs again at its next cycle%n", poolName,
                        was.get().protectedSince(), was.get().failedInARow(),
                        String.join("; ", was.get().recentFailures()));
            }
            out.flush();
            return 0;
        } catch (StoreException e) {
            err.println("cannot resume pool " + poolName + ": " + e.getMessage());
            err.flush();
            return Cli.FAILURE;
        } catch (EtagConflictException e) {
            err.println("cannot resume pool " + poolName + ": the scaler wrote its state each time it was read; try "
                    + "again");
            err.flush();
            return Cli.FAILURE;
        }
    }
}
