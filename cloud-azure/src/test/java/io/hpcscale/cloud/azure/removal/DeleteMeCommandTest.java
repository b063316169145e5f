package io.hpcscale.cloud.azure.removal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.storage.queue.QueueClient;
import com.azure.storage.queue.QueueClientBuilder;
import io.hpcscale.common.cli.Version;
import io.hpcscale.common.testing.AzuriteTestServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import io.hpcscale.scaler.removal.RemovalMessage;
import io.hpcscale.scaler.removal.RemovalRequests;
import io.hpcscale.scaler.removal.RemovalMessageCodec;
import io.hpcscale.scaler.removal.RemovalQueue;
import io.hpcscale.scaler.removal.RemovalRequest;
import io.hpcscale.scaler.removal.VmResourceId;

/**
 * {@code hpcscale-delete-me} through its real command line, reading a local imitation of the instance metadata
 * service and sending to Azurite with a connection string file; the message that lands is read back with the
 * scaler's adapter. A few runs are separate JVMs, as a node's script runs it, to see everything it prints.
 */
@ExtendWith(AzuriteTestServer.class)
class DeleteMeCommandTest {
    private static final AtomicInteger QUEUES = new AtomicInteger();
    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
    private static final String PROGRAM = "hpcscale-delete-me";

    @TempDir
    Path dir;

    private final String queue = "delete-me-" + QUEUES.incrementAndGet();
    private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);

    private record Run(int exitCode, String out, String err) {
        String all() {
            return out + err;
        }
    }

    private Run deleteMe(Map<String, String> environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        picocli.CommandLine commandLine = DeleteMeMain.commandLine(new DeleteMeCommand(clock, environment));
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int code = commandLine.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private Run deleteMe(String... args) {
        return deleteMe(Map.of(), args);
    }

    private Path connectionStringFile(String connectionString, String mode) throws IOException {
        Path file = dir.resolve("queue.connection");
        Files.writeString(file, connectionString + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }

    private Path connectionStringFile() throws IOException {
        return connectionStringFile(AzuriteTestServer.running().connectionString(), "rw-------");
    }

    private QueueClient createdQueue() {
        QueueClient client = new QueueClientBuilder().connectionString(AzuriteTestServer.running().connectionString())
                .queueName(queue).httpClient(StorageQueueRemovalQueue.httpClient()).buildClient();
        client.create();
        return client;
    }

    /** What the scaler receives from the test's queue. */
    private List<RemovalMessage> landed() throws Exception {
        try (RemovalQueue removals = StorageQueueRemovalQueue.open(new QueueAccess.WithConnectionString(
                ConnectionStringSecret.readFile(connectionStringFile(), "test"), queue), null,
                StorageQueueRemovalQueue.httpClient(), 5, clock)) {
            return removals.receive(RemovalQueue.MAX_RECEIVE, Duration.ofSeconds(30));
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void aUniformInstanceAsksForItsOwnRemoval() throws Exception {
        createdQueue();
        try (ImdsImitation imds = new ImdsImitation(ImdsImitation.fixture("imds-uniform.json"))) {
            Run run = deleteMe("--imds-endpoint", imds.endpoint().toString(), "--connection-string-file",
                    connectionStringFile().toString(), "--queue", queue, "--reason", "render job finished");

            assertEquals(0, run.exitCode(), run.all());
            RemovalMessage.Request landed = assertInstanceOf(RemovalMessage.Request.class, landed().get(0));
            assertEquals(new RemovalRequest(VmResourceId.parse(RemovalRequests.UNIFORM_ID), "render",
                    "render000003", NOW, PROGRAM + " " + Version.current() + " on render000003",
                    "render job finished"), landed.request());
            assertEquals("asked to remove render_3 (" + RemovalRequests.UNIFORM_ID + "): message "
                    + landed.delivery().messageId() + " on queue " + queue + " of storage account devstoreaccount1\n",
                    run.out());
            assertEquals("", run.err());
        }
    }

    @Test
    void aFlexibleVmAsksForItsOwnRemovalWithTheEndpointFromTheEnvironment() throws Exception {
        createdQueue();
        try (ImdsImitation imds = new ImdsImitation(ImdsImitation.fixture("imds-flexible.json"))) {
            Run run = deleteMe(Map.of(DeleteMeCommand.IMDS_ENVIRONMENT, imds.endpoint().toString()),
                    "--connection-string-file", connectionStringFile().toString(), "--queue", queue);

            assertEquals(0, run.exitCode(), run.all());
            RemovalRequest request = assertInstanceOf(RemovalMessage.Request.class, landed().get(0)).request();
            assertEquals(RemovalRequests.FLEXIBLE_ID, request.vm().id());
            assertEquals("render-flex", request.scaleSet());
            assertEquals("render-flex_4f3c2a1b", request.vmName());
            assertEquals("renderfl4f3c2a", request.computerName());
            assertEquals(null, request.reason());
        }
    }

    @Test
    void aDryRunPrintsTheMessageAndSendsNothing() throws Exception {
        QueueClient client = createdQueue();
        try (ImdsImitation imds = new ImdsImitation(ImdsImitation.fixture("imds-uniform.json"))) {
            Run run = deleteMe("--imds-endpoint", imds.endpoint().toString(), "--connection-string-file",
                    connectionStringFile().toString(), "--queue", queue, "--dry-run");
            Run withoutQueue = deleteMe("--imds-endpoint", imds.endpoint().toString(), "--dry-run");

            assertEquals(0, run.exitCode(), run.all());
            assertEquals(new RemovalMessageCodec().encode(new RemovalRequest(
                    VmResourceId.parse(RemovalRequests.UNIFORM_ID), "render", "render000003", NOW,
                    PROGRAM + " " + Version.current() + " on render000003", null)) + "\n", run.out());
            assertEquals(run.out(), withoutQueue.out());
            assertEquals(0, client.getProperties().getApproximateMessagesCountLong());
        }
    }

    @Test
    void offAzureItSaysSoInOneLineAndSendsNothing() throws Exception {
        QueueClient client = createdQueue();
        String endpoint = "http://127.0.0.1:" + closedPort();

        Run run = deleteMe("--imds-endpoint", endpoint, "--connection-string-file", connectionStringFile().toString(),
                "--queue", queue);

        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith(PROGRAM + ": cannot read this VM's identity from the instance metadata "
                + "service at " + endpoint + " (ConnectException"), run.err());
        assertTrue(run.err().endsWith("): hpcscale-delete-me runs on an Azure VM of a scale set\n"), run.err());
        assertEquals(1, run.err().lines().count());
        assertEquals(0, client.getProperties().getApproximateMessagesCountLong());
    }

    @Test
    void aVmInNoScaleSetIsRefused() throws Exception {
        String single = ImdsImitation.fixture("imds-flexible.json").replace("\"vmScaleSetName\": \"render-flex\"",
                "\"vmScaleSetName\": \"\"");
        try (ImdsImitation imds = new ImdsImitation(single)) {
            Run run = deleteMe("--imds-endpoint", imds.endpoint().toString(), "--dry-run");

            assertEquals(1, run.exitCode());
            assertEquals(PROGRAM + ": this VM (" + RemovalRequests.FLEXIBLE_ID + ") is in no scale set "
                    + "(compute.vmScaleSetName is empty): hpcscale removes only VMs of scale sets\n", run.err());
        }
    }

    @Test
    void aConnectionStringFileOthersCanReadIsRefusedAndNotShown() throws Exception {
        Path file = connectionStringFile(AzuriteTestServer.running().connectionString(), "rw-r--r--");
        try (ImdsImitation imds = new ImdsImitation(ImdsImitation.fixture("imds-uniform.json"))) {
            Run run = deleteMe("--imds-endpoint", imds.endpoint().toString(), "--connection-string-file",
                    file.toString(), "--queue", queue);

            assertEquals(1, run.exitCode());
            assertEquals(PROGRAM + ": --connection-string-file " + file + " is readable by other users (mode "
                    + "rw-r--r--): the connection string holds the storage account's key or a SAS. Make it readable "
                    + "by its user only: chmod 600 " + file + "\n", run.err());
            assertFalse(run.all().contains(AzuriteTestServer.KEY));
        }
    }

    @Test
    void optionsThatCannotWorkAreOneLineErrors() throws Exception {
        Path file = connectionStringFile();

        Run both = deleteMe("--queue-url", "https://renderfarm.queue.core.windows.net/removals",
                "--connection-string-file", file.toString(), "--queue", queue);
        Run neither = deleteMe("--reason", "done");
        Run noQueue = deleteMe("--connection-string-file", file.toString());
        Run plainHttp = deleteMe("--queue-url", "http://renderfarm.queue.core.windows.net/removals");
        Run unknown = deleteMe("--queue-name", queue);

        for (Run run : List.of(both, neither, noQueue, plainHttp, unknown)) {
            assertEquals(1, run.exitCode(), run.all());
            assertEquals(1, run.err().lines().count(), run.err());
            assertTrue(run.err().startsWith(PROGRAM + ": "), run.err());
        }
        assertTrue(both.err().contains("--queue-url and --connection-string-file are both given"), both.err());
        assertTrue(neither.err().contains("name the removal queue: --queue-url https://"), neither.err());
        assertTrue(noQueue.err().contains("--queue is required with --connection-string-file"), noQueue.err());
        assertTrue(plainHttp.err().contains("must be an https:// URL"), plainHttp.err());
        assertTrue(unknown.err().endsWith(" (see --help)\n"), unknown.err());
    }

    @Test
    void helpAndVersionExitZero() {
        Run help = deleteMe("--help");
        Run version = deleteMe("--version");

        assertEquals(0, help.exitCode());
        assertTrue(help.out().startsWith("Usage: " + PROGRAM + " "), help.out());
        assertTrue(help.out().contains("--dry-run") && help.out().contains("--imds-endpoint=URL"), help.out());
        assertEquals(0, version.exitCode());
        assertEquals(PROGRAM + " " + Version.current() + "\n", version.out());
    }

    /** As a node's script runs it: its own JVM, the metadata service named in its environment. */
    private static Run process(ImdsImitation imds, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), DeleteMeMain.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(k -> k.startsWith("HPCSCALE_"));
        builder.environment().put(DeleteMeCommand.IMDS_ENVIRONMENT, imds.endpoint().toString());
        Process process = builder.start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(PROGRAM + " did not end within 60 s");
        }
        return new Run(process.exitValue(), new String(out, StandardCharsets.UTF_8),
                new String(err, StandardCharsets.UTF_8));
    }

    @Test
    void asItsOwnProcessItExitsZeroOnceSentAndOneWithALineThatHoldsNoSecret() throws Exception {
        createdQueue();
        String wrongKey = "V3JvbmdLZXlXcm9uZ0tleVdyb25nS2V5V3JvbmdLZXlXcm9uZ0tleVdyb25nS2V5V3JvbmdLZXk=";
        String refused = AzuriteTestServer.running().connectionString(wrongKey);
        String unreachable = AzuriteTestServer.running().connectionString().replaceAll(":[0-9]+/", ":" + closedPort()
                + "/");
        try (ImdsImitation imds = new ImdsImitation(ImdsImitation.fixture("imds-uniform.json"))) {
            Run sent = process(imds, "--connection-string-file", connectionStringFile().toString(), "--queue", queue);
            Run denied = process(imds, "--connection-string-file", connectionStringFile(refused, "rw-------")
                    .toString(), "--queue", queue);
            Run down = process(imds, "--connection-string-file", connectionStringFile(unreachable, "rw-------")
                    .toString(), "--queue", queue);

            assertEquals(0, sent.exitCode(), sent.all());
            assertTrue(sent.out().startsWith("asked to remove render_3 "), sent.all());
            assertEquals("", sent.err());
            assertEquals(1, denied.exitCode(), denied.all());
            assertEquals(PROGRAM + ": cannot send a removal request to queue " + queue + " of storage account "
                    + "devstoreaccount1: the storage account refused the connection string (403 AuthenticationFailed): "
                    + "check its key or SAS is current and allows this (keys may have been rotated)\n", denied.all());
            assertEquals(1, down.exitCode(), down.all());
            assertTrue(down.all().startsWith(PROGRAM + ": cannot send a removal request to queue " + queue
                    + " of storage account devstoreaccount1: the queue service cannot be reached, even after retries"),
                    down.all());
            assertEquals(1, down.all().lines().count(), down.all());
            for (Run run : List.of(sent, denied, down)) {
                assertFalse(run.all().contains(AzuriteTestServer.KEY), run.all());
                assertFalse(run.all().contains(wrongKey), run.all());
                assertFalse(run.all().contains("AccountKey"), run.all());
            }
        }
    }
}
