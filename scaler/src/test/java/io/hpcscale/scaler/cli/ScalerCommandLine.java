package io.hpcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import picocli.CommandLine;

/**
 * The scaler's real command line as the end-to-end tests run it: each call a new scaler process, as far as the
 * scaler can tell, on one SQLite store in the test's directory.
 */
public final class ScalerCommandLine {

    /** What a command printed (standard output and error together) and its exit code. */
    public record Run(int code, String output) {
    }

    private ScalerCommandLine() {
    }

    public static Run run(String... args) {
        CommandLine commandLine = ScalerMain.commandLine();
        StringWriter out = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(out));
        int code = commandLine.execute(args);
        return new Run(code, out.toString());
    }

    /** {@code hpcscale-scaler once}, which must succeed; what it printed. */
    public static String once(Path config) {
        Run once = run("once", "--config", config.toString());
        assertEquals(0, once.code(), once.output());
        return once.output();
    }

    /** The pool's scaler state as the last command stored it. */
    public static ScalerStateDocument state(Path dir, String pool) {
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(dir.resolve("clusterload.db"),
                Duration.ofSeconds(5), Clock.systemUTC())) {
            return new DocumentStore(store).read(new DocumentKey(pool, ScalerStateDocument.idFor(pool)),
                    ScalerStateDocument.class).orElseThrow().document();
        }
    }
}
