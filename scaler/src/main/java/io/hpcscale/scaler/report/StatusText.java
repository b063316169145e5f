package io.hpcscale.scaler.report;

import io.hpcscale.common.config.Durations;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.scaler.documents.LastAction;
import io.hpcscale.scaler.documents.LeaseDocument;
import io.hpcscale.scaler.run.InstanceCategory;
import io.hpcscale.scaler.run.PoolCensus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Help.Ansi;

/**
 * {@code status} for people: a few lines per pool. Problems are red and backoff yellow when {@code ansi} says the
 * output is a terminal, plain otherwise.
 */
public final class StatusText {
    private final Ansi ansi;

    public StatusText(Ansi ansi) {
        this.ansi = ansi;
    }

    public List<String> lines(ScalerStatus status) {
        List<String> lines = new ArrayList<>();
        if (status.error() != null) {
            lines.add(red("cannot show the status: " + status.error()));
            return lines;
        }
        lines.add("lease      " + lease(status.lease(), status.at()));
        for (PoolStatus pool : status.pools()) {
            lines.add("");
            lines.add(ansi.string("@|bold pool " + pool.pool() + "|@") + "  (" + (pool.fixed() ? "fixed target"
                    : "demand") + ", min " + pool.min() + ", max " + pool.max() + ")");
            PoolCensus census = pool.census();
            if (census == null || !census.instancesKnown()) {
                lines.add("  " + red("unknown    " + (pool.problem() == null ? "not planned" : pool.problem())));
            } else {
                lines.add("  jobs       " + census.queuedJobs() + " queued, " + census.demandedNodes()
                        + " more nodes needed" + (census.target() == null ? "" : "; target " + census.target()));
                lines.add("  instances  " + instances(census));
                if (census.waitingJobs() > 0) {
                    lines.add("  waiting    " + yellow(census.waitingJobs() + " waiting for something other than nodes, "
                            + "which more nodes would not start: " + String.join("; ", census.waitingFor())
                            + (census.waitingJobs() > census.waitingFor().size() ? "; ..." : "")));
                }
                if (!census.heldByAdministrator().isEmpty()) {
                    lines.add("  held       " + yellow(census.heldByAdministrator().size() + " held offline by an "
                            + "administrator, left alone: " + String.join(", ", census.heldByAdministrator())));
                }
            }
            pool.sealedScaleSets().forEach((scaleSet, why) -> lines.add("  sealed     " + scaleSet + ": " + why));
            if (pool.census() != null && pool.census().protectedBecause() != null) {
                lines.add("  protected  " + red(pool.census().protectedBecause()));
            }
            if (pool.census() != null) {
                pool.census().orphans().forEach(orphan -> lines.add("  orphan     " + yellow(orphan)));
            }
            lines.add("  backoff    " + (pool.backoffUntil() == null ? "none"
                    : yellow("until " + pool.backoffUntil() + " (" + age(status.at(), pool.backoffUntil())
                            + " from now): " + pool.backoffReason())));
            lines.add("  last       " + lastAction(pool.lastAction(), status.at()));
            lines.add("  agent      " + agent(pool.agent(), status.at()));
        }
        return lines;
    }

    private static String instances(PoolCensus census) {
        List<String> parts = new ArrayList<>();
        for (InstanceCategory category : InstanceCategory.values()) {
            parts.add(census.count(category) + " " + category.wireName());
        }
        return String.join(", ", parts);
    }

    private String lease(LeaseDocument lease, Instant now) {
        if (lease == null || lease.holder().isEmpty()) {
            return yellow("held by no scaler");
        }
        if (!lease.expiresAt().isAfter(now)) {
            return yellow("expired at " + lease.expiresAt() + " (last held by " + lease.holder() + ")");
        }
        return "held by " + lease.holder() + " until " + lease.expiresAt()
                + (lease.renewedAt() == null ? "" : " (renewed " + age(lease.renewedAt(), now) + " ago)");
    }

    private String lastAction(LastAction action, Instant now) {
        if (action == null) {
            return "none recorded";
        }
        String text = action.action() + " " + String.join(",", action.instances()) + " " + age(action.at(), now)
                + " ago: " + action.reason() + " (" + action.outcome() + ")";
        return "failed".equals(action.outcome()) ? red(text) : text;
    }

    private String agent(AgentDocument agent, Instant now) {
        if (agent == null) {
            return yellow("no agent has reported this pool");
        }
        String text = agent.id() + " on " + agent.host() + ", heartbeat " + age(agent.lastCycleAt(), now) + " ago";
        return agent.lastError() == null ? text + ", no error" : red(text + ", last error: " + agent.lastError());
    }

    private static String age(Instant from, Instant to) {
        return Durations.human(Duration.between(from, to));
    }

    private String red(String text) {
        return ansi.string("@|red " + text.replace("|@", "|\\@") + "|@");
    }

    private String yellow(String text) {
        return ansi.string("@|yellow " + text.replace("|@", "|\\@") + "|@");
    }
}
