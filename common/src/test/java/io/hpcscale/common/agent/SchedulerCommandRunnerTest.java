package io.hpcscale.common.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandLine;
import io.hpcscale.common.exec.FakeCommandRunner;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchedulerCommandRunnerTest {
    private static final CommandLimits LIMITS = new CommandLimits(Duration.ofSeconds(30), "agent.commandTimeout",
            1 << 20, "agent.commandMaxOutput");

    private final FakeCommandRunner commands = new FakeCommandRunner();
    private final SchedulerCommandRunner runner = new SchedulerCommandRunner(commands);

    private static CommandLine command(String... argv) {
        return new CommandLine(List.of(argv), LIMITS, "agent.qstat");
    }

    @Test
    void aReadGivesTheCommandsOutput() throws Exception {
        commands.printing(List.of("qstat"), "{\"Jobs\": {}}");
        assertEquals("{\"Jobs\": {}}", runner.read(command("qstat", "-f", "-F", "json"),
                in -> new String(in.readAllBytes(), StandardCharsets.UTF_8)).value());
    }

    @Test
    void aFailedReadSaysNothingWasChanged() {
        commands.failing(List.of("qstat"), 2, "cannot connect to server");
        SchedulerReadException e = assertThrows(SchedulerReadException.class,
                () -> runner.read(command("qstat", "-f"), InputStream::readAllBytes));
        assertEquals("`qstat -f` exited with status 2: cannot connect to server; nothing was changed",
                e.getMessage());
    }

    @Test
    void aFailedChangeIsThatNodesProblem() {
        commands.failing(List.of("pbsnodes"), 1, "pbsnodes: Unauthorized Request");
        SchedulerCommandException e = assertThrows(SchedulerCommandException.class,
                () -> runner.change(command("pbsnodes", "-o", "n1")));
        assertEquals("`pbsnodes -o n1` exited with status 1: pbsnodes: Unauthorized Request", e.getMessage());
    }
}
