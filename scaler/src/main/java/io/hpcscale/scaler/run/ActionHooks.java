package io.hpcscale.scaler.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.CommandException;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandLine;
import io.hpcscale.common.exec.CommandRunner;
import io.hpcscale.scaler.cloud.CommandTemplate;
import io.hpcscale.scaler.plan.Plan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The administrator's commands around each pool's actions ({@code scaler.hooks.before}, {@code scaler.hooks.after}),
 * as the OpenPAI autoscaler offers {@code _before_scaling} and {@code _after_scaling}. The before hook reads the
 * plan as JSON and may refuse any action; it can take away, never add, so no hook weakens a safety rule (every stop
 * is still re-checked by {@code StopGuard} on a fresh read). One that fails, runs past its timeout or answers
 * anything but its answer's form holds all of the pool's actions for the cycle: an administrator who installed a
 * guard would not want it skipped because it broke. The after hook reads each action's outcome; its answer is
 * ignored and its failure logged.
 */
public final class ActionHooks {
    static final String BEFORE = "scaler.hooks.before";
    static final String AFTER = "scaler.hooks.after";
    private static final String TIMEOUT = "scaler.hooks.timeout";
    // A hook's answer is a short list of refusals; more is a runaway command.
    private static final long MAX_ANSWER_BYTES = 1 << 20;
    private static final Logger log = LoggerFactory.getLogger(ActionHooks.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CommandLine before;
    private final CommandLine after;
    private final CommandRunner runner;

    private ActionHooks(CommandLine before, CommandLine after, CommandRunner runner) {
        this.before = before;
        this.after = after;
        this.runner = runner;
    }

    /** No hook: every plan is carried out as made. */
    public static ActionHooks none() {
        return new ActionHooks(null, null, null);
    }

    /** @throws ConfigException naming a hook setting whose command cannot be parsed */
    public static ActionHooks fromSettings(Settings settings, CommandRunner runner) {
        CommandLimits limits = new CommandLimits(settings.duration(TIMEOUT), TIMEOUT, MAX_ANSWER_BYTES, null);
        List<String> problems = new ArrayList<>();
        CommandLine before = command(settings, BEFORE, limits, problems);
        CommandLine after = command(settings, AFTER, limits, problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new ActionHooks(before, after, runner);
    }

    private static CommandLine command(Settings settings, String key, CommandLimits limits, List<String> problems) {
        return settings.optionalString(key).map(text -> {
            try {
                return new CommandLine(CommandTemplate.parse(text, Set.of()).render(Map.of()), limits, key);
            } catch (IllegalArgumentException e) {
                // Not the command's text: an option of it may be secret, and a start-up error reaches the journal.
                problems.add(key + " cannot be read as a command: " + e.getMessage());
                return null;
            }
        }).orElse(null);
    }

    /** An action the before hook refused, and why. */
    record Refusal(Plan.Action action, String reason) {
    }

    /** The plan with only the actions the before hook let through, and those it refused. */
    record Verdict(Plan approved, List<Refusal> refused) {
    }

    /**
     * The plan as the before hook leaves it; the whole plan when there is no hook or nothing to offer it. Taking a
     * node's removal request on and answering its message are not offered: they only record what a node asked, and
     * a message left unanswered comes back until it is set aside as poison, losing the request. The removal itself
     * (the deletion) is offered.
     */
    Verdict before(Plan plan, Instant now) throws InterruptedException {
        List<Plan.Action> offered = plan.actions().stream().filter(ActionHooks::offered).toList();
        if (before == null || offered.isEmpty()) {
            return new Verdict(plan, List.of());
        }
        List<Plan.Action> approved = new ArrayList<>(plan.actions().stream().filter(a -> !offered(a)).toList());
        List<Refusal> refused = new ArrayList<>();
        Map<Integer, String> vetoed;
        try {
            String answer = runner.run(before.withInput(planJson(plan.pool(), offered, now))).stdoutText();
            vetoed = vetoes(answer, offered.size());
        } catch (CommandException | HookAnswerException e) {
            String why = "the before hook (" + BEFORE + ") failed, so none of the actions it was offered is carried "
                    + "out this cycle: " + e.getMessage();
            log.warn("pool={} {}", plan.pool(), why);
            offered.forEach(action -> refused.add(new Refusal(action, why)));
            return new Verdict(only(plan, approved), refused);
        }
        for (int id = 1; id <= offered.size(); id++) {
            Plan.Action action = offered.get(id - 1);
            if (vetoed.containsKey(id)) {
                refused.add(new Refusal(action, "vetoed by the before hook (" + BEFORE + "): " + vetoed.get(id)));
            } else {
                approved.add(action);
            }
        }
        return new Verdict(only(plan, approved), refused);
    }

    private static boolean offered(Plan.Action action) {
        return !(action instanceof Plan.Acceptance) && !(action instanceof Plan.RemovalAnswer);
    }

    /**
     * Tells the after hook what came of the pool's actions, and what the cycle's listing found (evictions, settled
     * actions); conditions the planner noted are left out, as they repeat every cycle. A failure is only logged.
     */
    void after(String pool, List<ScalerEvent> events, Instant now) throws InterruptedException {
        List<ScalerEvent> outcomes = events.stream().filter(e -> e.kind().action() || e.outcome().ok()).toList();
        if (after == null || outcomes.isEmpty()) {
            return;
        }
        try {
            runner.run(after.withInput(outcomesJson(pool, outcomes, now)));
        } catch (CommandException e) {
            log.warn("pool={} the after hook ({}) failed: {}", pool, AFTER, e.getMessage());
        }
    }

    private static Plan only(Plan plan, List<Plan.Action> actions) {
        return new Plan(plan.pool(), actions, plan.notes(), plan.found(), plan.queuedJobs(),
                plan.instancesUnknownBecause(), plan.demand(), plan.passedOn());
    }

    /** {"pool", "at", "actions": [{"id", "action", "subjects", "reason"}]}: ids count from 1 in plan order. */
    private static String planJson(String pool, List<Plan.Action> offered, Instant now) {
        ObjectNode root = JSON.createObjectNode().put("pool", pool).put("at", now.toString());
        ArrayNode actions = root.putArray("actions");
        for (int i = 0; i < offered.size(); i++) {
            Plan.Action action = offered.get(i);
            ObjectNode node = actions.addObject().put("id", i + 1).put("action", action.event().wireName());
            action.subjects().forEach(node.putArray("subjects")::add);
            node.put("reason", action.description());
        }
        return root.toString();
    }

    /** {"pool", "at", "outcomes": [{"action", "subjects", "reason", "outcome"}]}, one per event of the pool's cycle. */
    private static String outcomesJson(String pool, List<ScalerEvent> events, Instant now) {
        ObjectNode root = JSON.createObjectNode().put("pool", pool).put("at", now.toString());
        ArrayNode outcomes = root.putArray("outcomes");
        for (ScalerEvent event : events) {
            ObjectNode node = outcomes.addObject().put("action", event.kind().wireName());
            event.instances().forEach(node.putArray("subjects")::add);
            node.put("reason", event.reason()).put("outcome", event.outcome().wire());
        }
        return root.toString();
    }

    /**
     * The ids the answer refuses, with their reasons: nothing for an empty answer or one without {@code veto}.
     *
     * @throws HookAnswerException the answer is not of that form, or names an action the plan does not have
     */
    private static Map<Integer, String> vetoes(String answer, int actions) throws HookAnswerException {
        if (answer.isBlank()) {
            return Map.of();
        }
        JsonNode root;
        try {
            root = JSON.readTree(answer);
        } catch (JsonProcessingException e) {
            throw new HookAnswerException("its answer is not JSON (" + e.getOriginalMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new HookAnswerException("its answer is not a JSON object");
        }
        JsonNode veto = root.path("veto");
        if (veto.isMissingNode() || veto.isNull()) {
            return Map.of();
        }
        if (!veto.isArray()) {
            throw new HookAnswerException("\"veto\" is not a list");
        }
        Map<Integer, String> vetoed = new LinkedHashMap<>();
        for (JsonNode entry : veto) {
            JsonNode id = entry.path("id");
            if (!id.canConvertToInt() || !id.isIntegralNumber() || id.intValue() < 1 || id.intValue() > actions) {
                throw new HookAnswerException("a veto names no action of the plan (" + entry + "; ids are 1 to "
                        + actions + ")");
            }
            vetoed.put(id.intValue(), entry.path("reason").asText("no reason given"));
        }
        return vetoed;
    }

    /** A hook's answer that is not of the form it must have. */
    static final class HookAnswerException extends Exception {
        HookAnswerException(String message) {
            super(message);
        }
    }
}
