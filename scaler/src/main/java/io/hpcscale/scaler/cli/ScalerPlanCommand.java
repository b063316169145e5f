package io.hpcscale.scaler.cli;

import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.scaler.plan.Plan;
import io.hpcscale.scaler.run.CycleOutcome;
import io.hpcscale.scaler.run.PoolOutcome;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import io.hpcscale.scaler.plan.Words;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** Prints what the scaler would do for each pool now, without doing it or recording anything. */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "plan", description = "Print the plan for each pool without acting on it.")
final class ScalerPlanCommand implements Callable<Integer> {
    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        CycleOutcome outcome = ScalerRuntime.oneCycle(root.loadSettings(), true);
        PrintWriter out = spec.commandLine().getOut();
        if (outcome.error() != null) {
            out.println("cannot plan: " + outcome.error());
            out.flush();
            return 1;
        }
        for (PoolOutcome pool : outcome.pools()) {
            print(pool.plan(), out);
        }
        out.flush();
        return 0;
    }

    private static void print(Plan plan, PrintWriter out) {
        out.printf("pool %s: %s considered, %s needed%s%n", plan.pool(),
                Words.count(plan.demand().jobsConsidered(), "queued job"),
                Words.count(plan.demand().newNodes(), "more node"),
                plan.demand().jobsBeyondMax() > 0 ? ", " + Words.count(plan.demand().jobsBeyondMax(), "job")
                        + " beyond max" : "");
        plan.starts().forEach(s -> out.printf("  start        %-28s %s%n", s.instance().id(), s.reason()));
        if (plan.create() != null) {
            out.printf("  create       %-28s %s%n", plan.create().count() + " instances", plan.create().reason());
        }
        plan.cancels().forEach(c -> out.printf("  cancel-drain %-28s %s%n", c.node(), c.reason()));
        plan.drains().forEach(d -> out.printf("  drain        %-28s %s%n", d.instance().nodeName(), d.reason()));
        plan.stops().forEach(s -> out.printf("  %-12s %-28s %s%n", s.bootFailure() ? "boot-timeout" : "stop",
                s.instance().id(), s.reason()));
        plan.powerDone().forEach(p -> out.printf("  power-done   %-28s %s%n", p.node(), p.reason()));
        plan.notes().forEach(n -> out.printf("  note         %s%n", n.message()));
        if (plan.isEmpty() && plan.notes().isEmpty()) {
            out.println("  nothing to do");
        }
    }
}
