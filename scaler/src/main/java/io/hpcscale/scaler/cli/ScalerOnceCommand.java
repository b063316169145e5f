package io.hpcscale.scaler.cli;

import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.scaler.run.CycleOutcome;
import io.hpcscale.scaler.run.PoolOutcome;
import io.hpcscale.scaler.run.ScalerEvent;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import io.hpcscale.scaler.plan.Words;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** One cycle, then what it did; exits 1 if the cycle could not run or an action failed. */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "once", description = "Run one scaler cycle and print what it did.")
final class ScalerOnceCommand implements Callable<Integer> {
    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        CycleOutcome outcome = ScalerRuntime.oneCycle(root.loadSettings(), false);
        PrintWriter out = spec.commandLine().getOut();
        if (outcome.error() != null) {
            out.println("cycle failed: " + outcome.error());
            out.flush();
            return 1;
        }
        boolean failed = false;
        for (PoolOutcome pool : outcome.pools()) {
            out.printf("pool %s: %s considered, %s needed%n", pool.plan().pool(),
                    Words.count(pool.plan().demand().jobsConsidered(), "queued job"),
                    Words.count(pool.plan().demand().newNodes(), "more node"));
            for (ScalerEvent event : pool.events()) {
                out.printf("  %-14s %-28s %s [%s]%n", event.action(), String.join(",", event.instances()),
                        event.reason(), event.outcome());
                failed |= event.failed();
            }
            if (pool.events().isEmpty()) {
                out.println("  nothing to do");
            }
        }
        out.flush();
        return failed ? 1 : 0;
    }
}
