package io.hpcscale.scaler.cli;

import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.scaler.plan.Words;
import io.hpcscale.scaler.run.CycleOutcome;
import io.hpcscale.scaler.run.PoolOutcome;
import io.hpcscale.scaler.run.ScalerEvent;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * One cycle, then what it did. It takes the lease for that cycle and gives it back, and refuses to act while another
 * scaler holds it. Exits 1 if it could not act, a pool could not be listed or recorded, or an action failed.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "once",
        description = "Run one scaler cycle and print what it did.")
final class ScalerOnceCommand implements Callable<Integer> {
    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        try (ScalerRuntime runtime = ScalerRuntime.start(root.loadSettings(), Clock.systemUTC())) {
            CycleOutcome outcome = runtime.oneCycle(false);
            runtime.shutDown();
            int status = print(outcome, out);
            out.flush();
            return status;
        }
    }

    private static int print(CycleOutcome outcome, PrintWriter out) {
        if (outcome.standby()) {
            out.printf("nothing done: scaler %s holds the lease until %s; once acts only when no other scaler "
                    + "does (stop it, or use plan to see what it would do)%n", outcome.lease().holder(),
                    outcome.lease().expiresAt());
            return 1;
        }
        if (outcome.error() != null) {
            out.println("cycle failed: " + outcome.error());
            return 1;
        }
        for (PoolOutcome pool : outcome.pools()) {
            if (pool.plan() == null) {
                out.printf("pool %s: %s%n", pool.pool(), pool.problem() == null ? "still busy" : pool.problem());
                continue;
            }
            out.printf("pool %s: %s%n", pool.pool(), PlanWords.summary(pool.plan()));
            for (ScalerEvent event : pool.events()) {
                out.printf("  %-18s %-28s %s [%s]%n", event.kind(), String.join(",", event.instances()),
                        event.reason(), event.outcome());
            }
            if (pool.events().isEmpty()) {
                out.println("  nothing to do");
            }
            if (pool.problem() != null && pool.plan().instancesKnown()) {
                out.println("  problem: " + pool.problem());
            }
        }
        return outcome.failed() ? 1 : 0;
    }
}
