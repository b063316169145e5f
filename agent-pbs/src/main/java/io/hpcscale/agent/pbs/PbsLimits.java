package io.hpcscale.agent.pbs;

import com.fasterxml.jackson.databind.JsonNode;
import io.hpcscale.common.agent.QueueLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A queue's limits as {@code qstat -Q -f -F json} prints them (OpenPBS attr_fn_entlim.c, qstat.c): the limits of
 * PBS 13 and later as strings of entries, {@code "[o:PBS_ALL=10]"}, {@code "[u:PBS_GENERIC=1]"},
 * {@code "[u:alice=4],[g:staff=8]"} (entries joined with commas since OpenPBS PR #2678; older servers print one JSON
 * key per entry, of which the reader keeps the last); the older {@code max_running} and {@code max_user_run} as
 * numbers; {@code resources_max} per job. Group and project entries are not read: the agent does not know a job's
 * group or project. A value that cannot be read is left out, with no limit assumed, and said in the log by the caller.
 */
final class PbsLimits {
    private static final Pattern ENTRY = Pattern.compile("\\[([ougp]):([^=\\]]+)=([^\\]]+)]");

    private PbsLimits() {
    }

    /** @param problems where a value that cannot be read is described */
    static List<QueueLimit> of(JsonNode queue, List<String> problems) {
        List<QueueLimit> limits = new ArrayList<>();
        entries(queue.path("max_run"), "max_run", QueueLimit.Kind.RUNNING_JOBS, limits, problems);
        entries(queue.path("max_run_res").path("ncpus"), "max_run_res.ncpus", QueueLimit.Kind.RUNNING_CPUS, limits,
                problems);
        entries(queue.path("max_run_res").path("nodect"), "max_run_res.nodect", QueueLimit.Kind.RUNNING_NODES,
                limits, problems);
        number(queue.path("max_running"), "max_running", null, QueueLimit.Kind.RUNNING_JOBS, limits, problems);
        number(queue.path("max_user_run"), "max_user_run", QueueLimit.EACH_USER, QueueLimit.Kind.RUNNING_JOBS,
                limits, problems);
        number(queue.path("resources_max").path("ncpus"), "resources_max.ncpus", null, QueueLimit.Kind.JOB_CPUS,
                limits, problems);
        number(queue.path("resources_max").path("nodect"), "resources_max.nodect", null,
                QueueLimit.Kind.JOB_NODES, limits, problems);
        return limits;
    }

    private static void entries(JsonNode value, String name, QueueLimit.Kind kind, List<QueueLimit> limits,
            List<String> problems) {
        if (value.isMissingNode() || value.isNull()) {
            return;
        }
        String text = value.asText().strip();
        Matcher entry = ENTRY.matcher(text);
        boolean any = false;
        while (entry.find()) {
            any = true;
            String type = entry.group(1);
            String who = entry.group(2).strip();
            long count;
            try {
                count = Long.parseLong(entry.group(3).strip());
            } catch (NumberFormatException e) {
                problems.add(name + " = " + text + " has a limit that is not a whole number");
                continue;
            }
            String setting = name + " = " + entry.group();
            if (type.equals("o") && who.equals("PBS_ALL")) {
                limits.add(new QueueLimit(kind, null, count, setting));
            } else if (type.equals("u")) {
                limits.add(new QueueLimit(kind, who.equals("PBS_GENERIC") ? QueueLimit.EACH_USER : who, count,
                        setting));
            }
        }
        if (!any) {
            problems.add(name + " = " + text + " is not a list of [type:entity=value] limits");
        }
    }

    private static void number(JsonNode value, String name, String user, QueueLimit.Kind kind,
            List<QueueLimit> limits, List<String> problems) {
        if (value.isMissingNode() || value.isNull()) {
            return;
        }
        String text = value.asText().strip();
        try {
            limits.add(new QueueLimit(kind, user, Long.parseLong(text), name + " = " + text));
        } catch (NumberFormatException e) {
            problems.add(name + " = " + text + " is not a whole number");
        }
    }
}
