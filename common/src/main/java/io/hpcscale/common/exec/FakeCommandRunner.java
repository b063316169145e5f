package io.hpcscale.common.exec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Answers commands from a script, by the longest matching argument prefix, and records every call. The fake beside
 * {@link CommandRunner} for tests that need no real process.
 */
public final class FakeCommandRunner implements CommandRunner {

    /** What a scripted command does when called. */
    public interface Response {
        CommandResult answer(CommandLine command) throws CommandException;
    }

    private final Map<List<String>, Response> responses = new LinkedHashMap<>();
    private final List<List<String>> calls = new ArrayList<>();

    public FakeCommandRunner printing(List<String> argvPrefix, String stdout) {
        return answering(argvPrefix, c -> new CommandResult(c, stdout.getBytes(StandardCharsets.UTF_8), "",
                Duration.ZERO));
    }

    public FakeCommandRunner printing(List<String> argvPrefix, Function<CommandLine, String> stdout) {
        return answering(argvPrefix, c -> new CommandResult(c, stdout.apply(c).getBytes(StandardCharsets.UTF_8), "",
                Duration.ZERO));
    }

    public FakeCommandRunner failing(List<String> argvPrefix, int exitCode, String stderr) {
        return answering(argvPrefix, c -> {
            throw new CommandFailedException(c, exitCode, stderr);
        });
    }

    public FakeCommandRunner missing(List<String> argvPrefix) {
        return answering(argvPrefix, c -> {
            throw new CommandNotFoundException(c, "no such file or directory", null);
        });
    }

    public synchronized FakeCommandRunner answering(List<String> argvPrefix, Response response) {
        responses.put(List.copyOf(argvPrefix), response);
        return this;
    }

    public synchronized List<List<String>> calls() {
        return List.copyOf(calls);
    }

    /** Calls whose arguments start with this prefix. */
    public synchronized List<List<String>> callsStartingWith(List<String> prefix) {
        return calls.stream().filter(c -> startsWith(c, prefix)).toList();
    }

    /** Hands the scripted output to the reader, as the real runner hands it what the command prints. */
    @Override
    public <T, E extends Exception> StreamedResult<T> run(CommandLine command, OutputReader<T, E> reader)
            throws CommandException, E {
        CommandResult result = run(command);
        try {
            return new StreamedResult<>(command, reader.read(new ByteArrayInputStream(result.stdout())),
                    result.stderr(), result.elapsed());
        } catch (IOException e) {
            throw new CommandOutputException(command, e);
        }
    }

    @Override
    public CommandResult run(CommandLine command) throws CommandException {
        Response response;
        synchronized (this) {
            calls.add(command.argv());
            response = responses.entrySet().stream()
                    .filter(e -> startsWith(command.argv(), e.getKey()))
                    .max((a, b) -> Integer.compare(a.getKey().size(), b.getKey().size()))
                    .map(Map.Entry::getValue)
                    .orElse(null);
        }
        if (response == null) {
            throw new CommandNotFoundException(command, "the fake runner has no answer scripted for `"
                    + command.display() + "`", null);
        }
        return response.answer(command);
    }

    private static boolean startsWith(List<String> argv, List<String> prefix) {
        return argv.size() >= prefix.size() && argv.subList(0, prefix.size()).equals(prefix);
    }
}
