package io.hpcscale.common.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Azurite's Azure Storage queue service ({@code test-servers/azurite-queue.js}), in memory, on a free port. Started
 * once per test JVM through the JUnit extension ({@code @ExtendWith(AzuriteTestServer.class)}, then
 * {@link #running()}) and stopped when the JVM's tests end; it also stops by itself if the JVM dies, as its stdin
 * closes. Tests share it and keep apart by queue name. A test that stops the service starts one of its own with
 * {@link #startOwn()}; one that signs in with a token, one over HTTPS with {@link #startOwnTakingTokens()}.
 */
public final class AzuriteTestServer implements BeforeAllCallback {
    /** Azurite's well-known development account and key; not a secret. */
    public static final String ACCOUNT = "devstoreaccount1";
    public static final String KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    private static final String LISTENING = "Azurite Queue service successfully listens on ";
    private static Running running;

    /** A running queue service. */
    public record Running(Process process, String queueEndpoint) implements
            ExtensionContext.Store.CloseableResource, AutoCloseable {

        /** A connection string for the development account on this server. */
        public String connectionString() {
            return connectionString(KEY);
        }

        /** The same with another key: one the server refuses. */
        public String connectionString(String key) {
            return "DefaultEndpointsProtocol=http;AccountName=" + ACCOUNT + ";AccountKey=" + key + ";QueueEndpoint="
                    + queueEndpoint + ";";
        }

        /** Stops the server: closing its stdin ends it, and the port then refuses connections. */
        public void stop() {
            try {
                process.getOutputStream().close();
            } catch (IOException e) {
                process.destroy();
            }
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void close() {
            stop();
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        synchronized (AzuriteTestServer.class) {
            if (running == null) {
                running = startOwn();
                context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(AzuriteTestServer.class, running);
            }
        }
    }

    /** The server of this test JVM, started with the first test class that asks for it. */
    public static synchronized Running running() {
        if (running == null) {
            throw new IllegalStateException("no Azurite: annotate the test with @ExtendWith(AzuriteTestServer.class)");
        }
        return running;
    }

    /** A server of the caller's own, which the caller closes. About a second to start. */
    public static Running startOwn() throws IOException {
        return start(List.of());
    }

    /**
     * A server of the caller's own over HTTPS with the test certificate (clients trust it through
     * {@link TestCertificate#clientContext()}), taking Entra ID tokens as well as the account key. Azurite's "basic"
     * check of a token: an unexpired JWT whose audience is Azure Storage and whose issuer is Entra ID's; the signature
     * is not checked.
     */
    public static Running startOwnTakingTokens() throws IOException {
        TestCertificate certificate = TestCertificate.get();
        return start(List.of("--oauth", "basic", "--cert", certificate.keyStore().toString(), "--pwd",
                TestCertificate.PASSWORD));
    }

    private static Running start(List<String> options) throws IOException {
        List<String> command = new ArrayList<>(List.of("node", TestServers.directory().resolve("azurite-queue.js")
                .toString(), "--queueHost", "127.0.0.1", "--queuePort", "0", "--inMemoryPersistence",
                "--skipApiVersionCheck", "--disableTelemetry", "--silent"));
        command.addAll(options);
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith(LISTENING)) {
            // Azurite's lines before it listens: its memory limit, "starting".
        }
        if (line == null) {
            process.destroyForcibly();
            throw new IllegalStateException("Azurite did not start; see its output above");
        }
        drain(out);
        return new Running(process, line.substring(LISTENING.length()).strip() + "/" + ACCOUNT);
    }

    /** Azurite prints a line when it stops; a full pipe would block it. */
    private static void drain(BufferedReader out) {
        Thread drainer = new Thread(() -> {
            try {
                while (out.readLine() != null) {
                    // Nothing to keep.
                }
            } catch (IOException e) {
                // The process is gone.
            }
        }, "azurite-output");
        drainer.setDaemon(true);
        drainer.start();
    }
}
