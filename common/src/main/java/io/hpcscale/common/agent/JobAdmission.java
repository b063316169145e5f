package io.hpcscale.common.agent;

import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandRunner;
import io.hpcscale.common.model.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which queued jobs more nodes would start: those within their queue's limits ({@link QueueLimit}) and the shared
 * counted resources ({@link SharedResources}). The others wait for the limit, not for nodes: their documents say
 * {@code Waiting} and why, so the scaler starts nothing for them and {@code status} shows the reason. Jobs are
 * admitted in the order they were submitted, after what already runs.
 */
public final class JobAdmission {
    private final SharedResources shared;

    public JobAdmission(SharedResources shared) {
        this.shared = shared;
    }

    /** The shared resources the settings count ({@code shared.<r>.*}), their commands run within the agent's limits. */
    public static JobAdmission fromSettings(Settings settings, CommandRunner runner) {
        CommandLimits limits = new CommandLimits(settings.duration("agent.commandTimeout"), "agent.commandTimeout",
                settings.size("agent.commandMaxOutput"), "agent.commandMaxOutput");
        return new JobAdmission(SharedResources.fromSettings(settings, runner, limits));
    }

    public static JobAdmission none() {
        return new JobAdmission(SharedResources.none());
    }

    /** The snapshot with each queued job beyond a limit marked waiting; problems reading counts are returned. */
    public Admitted admit(SchedulerSnapshot snapshot) throws InterruptedException {
        if (shared.isEmpty() && snapshot.queueLimits().isEmpty()) {
            return new Admitted(snapshot, List.of());
        }
        List<SchedulerJob> running = snapshot.jobs().stream().filter(j -> j.state() == JobState.Running).toList();
        SharedResources.Reading reading = shared.read(running);
        Tally tally = new Tally(snapshot.queueLimits(), reading.free());
        running.forEach(tally::add);
        Map<String, SchedulerJob> decided = new HashMap<>();
        snapshot.jobs().stream().filter(j -> j.state() == JobState.Queued && j.waitingFor() == null)
                .sorted(Comparator.comparing(SchedulerJob::submittedAt, Comparator.nullsLast(Instant::compareTo))
                        .thenComparing(SchedulerJob::id))
                .forEach(job -> {
                    String reason = tally.whyNot(job);
                    if (reason == null) {
                        tally.add(job);
                    } else {
                        decided.put(job.id(), job.waiting(reason));
                    }
                });
        if (decided.isEmpty()) {
            return new Admitted(snapshot, reading.problems());
        }
        List<SchedulerJob> jobs = new ArrayList<>(snapshot.jobs().size());
        snapshot.jobs().forEach(job -> jobs.add(decided.getOrDefault(job.id(), job)));
        return new Admitted(snapshot.withJobs(jobs), reading.problems());
    }

    /** @param problems counts of shared resources that could not be read this cycle */
    public record Admitted(SchedulerSnapshot snapshot, List<String> problems) {
    }

    /** What runs, and what was admitted so far, against each limit. */
    private static final class Tally {
        private final Map<String, List<QueueLimit>> limits;
        private final Map<String, Long> free;
        private final Map<String, Long> counted = new HashMap<>();
        private final Map<String, Long> sharedUsed = new HashMap<>();

        Tally(Map<String, List<QueueLimit>> limits, Map<String, Long> free) {
            this.limits = limits;
            this.free = free;
        }

        String whyNot(SchedulerJob job) {
            String queue = queueOf(job);
            List<QueueLimit> queueLimits = limits.getOrDefault(queue, List.of());
            for (QueueLimit limit : queueLimits) {
                if (!applies(limit, job, queueLimits)) {
                    continue;
                }
                long asked = amount(limit.kind(), job);
                if (limit.perJob()) {
                    if (asked > limit.value()) {
                        return "it asks for " + asked + (limit.kind() == QueueLimit.Kind.JOB_CPUS ? " CPUs" : " nodes")
                                + ", more than queue " + queue + "'s " + limit.setting() + " allows: it never runs "
                                + "there";
                    }
                    continue;
                }
                long now = counted.getOrDefault(key(queue, limit, job), 0L);
                if (now + asked > limit.value()) {
                    return "queue " + queue + "'s limit " + limit.setting() + " is reached (" + now + " "
                            + unit(limit.kind()) + " running or first in line" + ")";
                }
            }
            for (Map.Entry<String, Long> ask : job.asks().shared().entrySet()) {
                Long available = free.get(ask.getKey());
                if (available == null) {
                    continue;
                }
                long taken = sharedUsed.getOrDefault(ask.getKey(), 0L);
                if (taken + ask.getValue() > available) {
                    return "shared resource " + ask.getKey() + ": it asks for " + ask.getValue() + " and "
                            + Math.max(0, available - taken) + " of the " + available + " free now are left for it";
                }
            }
            return null;
        }

        void add(SchedulerJob job) {
            String queue = queueOf(job);
            List<QueueLimit> queueLimits = limits.getOrDefault(queue, List.of());
            for (QueueLimit limit : queueLimits) {
                if (!limit.perJob() && applies(limit, job, queueLimits)) {
                    counted.merge(key(queue, limit, job), amount(limit.kind(), job), Long::sum);
                }
            }
            if (job.state() != JobState.Running) {
                job.asks().shared().forEach((name, count) -> sharedUsed.merge(name, count, Long::sum));
            }
        }

        /**
         * Whether the limit counts this job: the whole queue's always; one on every user only where the job's owner
         * has no limit of that kind of their own, which PBS applies instead.
         */
        private static boolean applies(QueueLimit limit, SchedulerJob job, List<QueueLimit> queueLimits) {
            String owner = job.asks().owner();
            if (!limit.covers(owner)) {
                return false;
            }
            return !QueueLimit.EACH_USER.equals(limit.user()) || queueLimits.stream()
                    .noneMatch(other -> other.kind() == limit.kind() && owner != null && owner.equals(other.user()));
        }

        private static String key(String queue, QueueLimit limit, SchedulerJob job) {
            String who = limit.user() == null ? "" : QueueLimit.EACH_USER.equals(limit.user())
                    ? String.valueOf(job.asks().owner()) : limit.user();
            return queue + "\u0000" + limit.kind() + "\u0000" + limit.user() + "\u0000" + who;
        }

        private static long amount(QueueLimit.Kind kind, SchedulerJob job) {
            return switch (kind) {
                case RUNNING_JOBS -> 1;
                case RUNNING_CPUS, JOB_CPUS -> job.totalCpus();
                case RUNNING_NODES, JOB_NODES -> Math.max(1, job.nodes());
            };
        }

        private static String unit(QueueLimit.Kind kind) {
            return switch (kind) {
                case RUNNING_JOBS -> "jobs";
                case RUNNING_CPUS, JOB_CPUS -> "CPUs";
                case RUNNING_NODES, JOB_NODES -> "nodes";
            };
        }

        private static String queueOf(SchedulerJob job) {
            return job.queues().isEmpty() ? "" : job.queues().get(0);
        }
    }
}
