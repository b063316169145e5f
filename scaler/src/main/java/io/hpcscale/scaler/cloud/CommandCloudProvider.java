package io.hpcscale.scaler.cloud;

import io.hpcscale.common.exec.CommandException;
import io.hpcscale.common.exec.CommandFailedException;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandLine;
import io.hpcscale.common.exec.CommandRunner;
import io.hpcscale.scaler.pool.StopAction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Instances controlled by configured commands: on-premises power control (IPMI, Wake-on-LAN) or a test cluster's
 * daemons. {@code list} prints one instance per line, {@code <instance> <node> <state>}; {@code start} and
 * {@code stop} act on one instance. A start that exits 69 (EX_UNAVAILABLE) means no capacity; 75 (EX_TEMPFAIL)
 * means try again later; any other failure is reported with its stderr.
 */
public final class CommandCloudProvider implements CloudProvider {
    public static final int EXIT_NO_CAPACITY = 69;
    public static final int EXIT_TRY_LATER = 75;
    private static final Duration TRY_LATER = Duration.ofSeconds(60);
    private static final Set<String> PLACEHOLDERS = Set.of("instance", "node");

    /** The pool's three commands, with the settings that define them for error messages. */
    public record Commands(String pool, CommandTemplate list, CommandTemplate start, CommandTemplate stop,
            CommandLimits limits) {

        /** @throws IllegalArgumentException naming the setting whose command cannot be used */
        public static Commands parse(String pool, String list, String start, String stop, CommandLimits limits) {
            return new Commands(pool, template(pool, "list", list, Set.of()),
                    template(pool, "start", start, PLACEHOLDERS), template(pool, "stop", stop, PLACEHOLDERS),
                    limits);
        }

        private static CommandTemplate template(String pool, String which, String text, Set<String> placeholders) {
            try {
                return CommandTemplate.parse(text, placeholders);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("pool." + pool + ".command." + which + ": " + e.getMessage(), e);
            }
        }

        String setting(String which) {
            return "pool." + pool + ".command." + which;
        }
    }

    private final CommandRunner runner;
    private final Commands commands;
    private final CallGate gate;

    public CommandCloudProvider(CommandRunner runner, Commands commands, CallGate gate) {
        this.runner = runner;
        this.commands = commands;
        this.gate = gate;
    }

    @Override
    public List<Instance> list() throws CloudException, InterruptedException {
        String output = run("list", commands.list().render(Map.of())).stdoutText();
        List<Instance> instances = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        int lineNumber = 0;
        for (String line : output.split("\n")) {
            lineNumber++;
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String[] fields = trimmed.split("\\s+");
            if (fields.length != 3) {
                throw listProblem(lineNumber, line, "expected three words: instance node state");
            }
            PowerState state = state(fields[2]);
            if (state == null) {
                throw listProblem(lineNumber, line, "unknown state '" + fields[2]
                        + "' (use running, starting, stopping, stopped, on or off)");
            }
            if (!ids.add(fields[0])) {
                throw listProblem(lineNumber, line, "instance " + fields[0] + " is listed twice");
            }
            instances.add(new Instance(fields[0], fields[1], state));
        }
        return instances;
    }

    @Override
    public InstanceResults start(List<Instance> instances) throws InterruptedException {
        return each("start", commands.start(), instances);
    }

    @Override
    public InstanceResults stop(List<Instance> instances, StopAction action) throws InterruptedException {
        return each("stop", commands.stop(), instances);
    }

    /**
     * One command per instance. After a capacity refusal or a request to try later, the remaining instances are not
     * attempted (they would fail the same way); after any other failure the others are still tried.
     */
    private InstanceResults each(String which, CommandTemplate template, List<Instance> instances)
            throws InterruptedException {
        InstanceResults.Builder results = new InstanceResults.Builder();
        CloudException stopper = null;
        for (Instance instance : instances) {
            if (stopper == null && !gate.open()) {
                stopper = new CloudException("not attempted: " + gate.closedBecause());
            }
            if (stopper != null) {
                results.failed(instance, stopper);
                continue;
            }
            try {
                run(which, template.render(Map.of("instance", instance.id(), "node", instance.nodeName())));
                results.done(instance);
            } catch (CapacityException | ThrottledException e) {
                results.failed(instance, e);
                stopper = e;
            } catch (CloudException e) {
                results.failed(instance, e);
            }
        }
        return results.build();
    }

    @Override
    public boolean canCreate() {
        return false;
    }

    @Override
    public CreateResult create(int count) throws CloudException {
        throw new CloudException("the command provider of pool " + commands.pool() + " cannot create instances: "
                + "list more instances in " + commands.setting("list"));
    }

    @Override
    public String account() {
        return "command provider of pool " + commands.pool();
    }

    @Override
    public String describe() {
        return "command provider of pool " + commands.pool();
    }

    private io.hpcscale.common.exec.CommandResult run(String which, List<String> argv)
            throws CloudException, InterruptedException {
        CommandLine command = new CommandLine(argv, commands.limits(), commands.setting(which));
        try {
            return runner.run(command);
        } catch (CommandFailedException e) {
            if (e.exitCode() == EXIT_NO_CAPACITY) {
                throw new CapacityException(e.getMessage());
            }
            if (e.exitCode() == EXIT_TRY_LATER) {
                throw new ThrottledException(e.getMessage(), TRY_LATER);
            }
            throw new CloudException(e.getMessage(), e);
        } catch (CommandException e) {
            throw new CloudException(e.getMessage(), e);
        }
    }

    private CloudException listProblem(int lineNumber, String line, String problem) {
        return new CloudException("line " + lineNumber + " of the output of " + commands.setting("list")
                + " cannot be read (" + problem + "): '" + line.strip() + "'; the instance list is treated as "
                + "unknown, so nothing is stopped in pool " + commands.pool());
    }

    private static PowerState state(String word) {
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "running", "on", "up" -> PowerState.RUNNING;
            case "starting", "booting" -> PowerState.STARTING;
            case "stopping" -> PowerState.STOPPING;
            case "stopped", "off", "down", "deallocated" -> PowerState.STOPPED;
            default -> null;
        };
    }
}
