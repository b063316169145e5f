package io.hpcscale.scaler.cli;

import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.plan.Plan;
import io.hpcscale.scaler.run.CycleOutcome;
import io.hpcscale.scaler.run.PoolOutcome;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * Prints what the scaler would do for each pool now, without doing it, recording anything or needing the lease; it
 * works while the service runs. Exits 1 if a pool could not be planned (its instances or its state unknown).
 */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "plan",
        description = "Print the plan for each pool without acting on it.")
final class ScalerPlanCommand implements Callable<Integer> {
    @ParentCommand
    private RootCommand root;

    @Option(names = "--explain", paramLabel = "JOB", description = "Print, for each pool of the job's queue in the "
            + "order the job tries them, whether the job matches its constraints and fits its shape, and why not.")
    private String explain;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        CycleOutcome outcome;
        PrintWriter out = spec.commandLine().getOut();
        try (ScalerRuntime runtime = ScalerRuntime.forReading(root.loadSettings(), Clock.systemUTC())) {
            outcome = runtime.oneCycle(true);
            if (explain != null) {
                return explain(runtime, out);
            }
        }
        if (outcome.error() != null) {
            out.println("cannot plan: " + outcome.error());
            out.flush();
            return 1;
        }
        for (PoolOutcome pool : outcome.pools()) {
            if (pool.plan() == null) {
                out.printf("pool %s: cannot be planned: %s%n", pool.pool(), pool.problem());
            } else {
                print(pool.plan(), out);
            }
        }
        out.flush();
        return outcome.failed() ? 1 : 0;
    }

    /** Exits 1 when no job of that id is in the store. */
    private int explain(ScalerRuntime runtime, PrintWriter out) {
        List<JobDocument> jobs = runtime.documents().all(DocumentType.JOBS, JobDocument.class).stream()
                .filter(j -> j.schedulerId().equals(explain) || j.id().equals(explain)).toList();
        if (jobs.isEmpty()) {
            out.printf("no job %s in the store: the agents write queued and running jobs; check the id with "
                    + "hpcscale-scaler status or hpcscale-agent-<scheduler> documents%n", explain);
            out.flush();
            return 1;
        }
        JobExplanation explanation = new JobExplanation(runtime.scaler().planner().matching());
        jobs.forEach(job -> explanation.print(job, runtime.scaler().groupOf(job.poolName()), out));
        out.flush();
        return 0;
    }

    private static void print(Plan plan, PrintWriter out) {
        out.printf("pool %s: %s%n", plan.pool(), PlanWords.summary(plan));
        plan.starts().forEach(s -> line(out, EventKind.START.wireName(), s.instance().id(), s.reason()));
        if (plan.create() != null) {
            line(out, EventKind.CREATE.wireName(), plan.create().count() + " instances", plan.create().reason());
        }
        plan.cancels().forEach(c -> line(out, EventKind.CANCEL_DRAIN.wireName(), c.node(), c.reason()));
        plan.drains().forEach(d -> line(out, EventKind.DRAIN.wireName(), d.node(), d.reason()));
        plan.stops().forEach(s -> line(out, s.event().wireName(), s.instance().id(), s.reason()));
        plan.powerDone().forEach(p -> line(out, EventKind.POWER_REQUEST_DONE.wireName(), p.node(), p.reason()));
        plan.notes().forEach(n -> out.printf("  %-18s %s%n", n.kind().wireName(), n.message()));
        if (plan.isEmpty() && plan.notes().isEmpty()) {
            out.println("  nothing to do");
        }
    }

    private static void line(PrintWriter out, String action, String what, String reason) {
        out.printf("  %-18s %-28s %s%n", action, what, reason);
    }
}
