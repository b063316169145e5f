package io.hpcscale.cloud.azure.removal;

import io.hpcscale.scaler.cli.AzureCommandLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.storage.queue.QueueClient;
import com.azure.storage.queue.QueueClientBuilder;
import io.hpcscale.common.testing.AzuriteTestServer;
import io.hpcscale.scaler.cli.ScalerCommandLine;
import io.hpcscale.cloud.azure.FakeArmServer;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.RequestKind;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Render nodes removing themselves, through the real programs: {@code hpcscale-delete-me} reads a local imitation
 * of the instance metadata service and puts its message on Azurite's queue; {@code hpcscale-scaler once} (a new
 * scaler process each time, on one SQLite store) deletes exactly that instance through the fake Resource Manager and
 * lowers the resource group's count by one, however often the message is delivered. A message for an instance the
 * pool does not have and an unreadable one are set aside on the poison queue.
 */
@ExtendWith({FakeArmServer.class, AzuriteTestServer.class})
class SelfRemovalOnAzureTest {
    private static final String RG = "rg-render";

    @TempDir
    Path dir;

    private final FakeArm arm = FakeArmServer.arm();
    private final String queue = "removals-e2e";

    private record Run(int code, String output) {
    }

    private static Run run(CommandLine commandLine, String... args) {
        StringWriter out = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(out));
        int code = commandLine.execute(args);
        return new Run(code, out.toString());
    }

    private static String once(Path config) {
        return ScalerCommandLine.once(config);
    }

    private Run deleteMe(ImdsImitation imds, Path connection) {
        return run(DeleteMeMain.commandLine(new DeleteMeCommand(Clock.systemUTC(), Map.of())), "--imds-endpoint",
                imds.endpoint().toString(), "--connection-string-file", connection.toString(), "--queue", queue,
                "--reason", "render job finished");
    }

    private QueueClient client(String name) {
        return new QueueClientBuilder().connectionString(AzuriteTestServer.running().connectionString())
                .queueName(name).httpClient(StorageQueueRemovalQueue.httpClient()).buildClient();
    }

    /** This test's requests: the fake serves the whole test JVM. */
    private long requests(RequestKind kind) {
        return arm.log().entries(kind).stream().filter(e -> e.path().contains("/resourceGroups/" + RG + "/"))
                .count();
    }

    private String tag() {
        return arm.state().resourceGroup(RG).orElseThrow().tags().get("TOTAL_NODES");
    }

    @Test
    void aNodeRemovesItselfOnceHoweverOftenItsMessageArrivesAndBadMessagesAreSetAside() throws Exception {
        arm.resourceGroup(RG, "westeurope", Map.of("TOTAL_NODES", "5", "team", "lighting"));
        arm.scaleSet(ScaleSetSpec.uniform(RG, "render").computerNamePrefix("render").spot("Delete")
                .instances(5, PowerState.RUNNING));
        client(queue).create();
        Path connection = dir.resolve("queue.connection");
        Files.writeString(connection, AzuriteTestServer.running().connectionString() + "\n");
        Files.setPosixFilePermissions(connection, PosixFilePermissions.fromString("rw-------"));
        Path config = dir.resolve("hpcscale.properties");
        List<String> settings = AzureCommandLine.settings(arm, dir);
        settings.addAll(List.of(
                "azure.removalQueue.connectionStringFile = " + connection,
                "azure.removalQueue.queue = " + queue,
                "azure.removalQueue.visibilityTimeout = 1s",
                "pool.render.provider = azure",
                "pool.render.target = fixed",
                "pool.render.max = 10",
                "pool.render.azure.allowCreate = true",
                "pool.render.azure.resourceGroup = " + RG,
                "pool.render.azure.scaleSet = render"));
        Files.write(config, settings);
        once(config);

        try (ImdsImitation imds = new ImdsImitation(ImdsImitation.fixture("imds-uniform.json"))) {
            assertEquals(0, deleteMe(imds, connection).code());
            assertEquals(0, deleteMe(imds, connection).code(), "the node's script ran twice");
            imds.serve(ImdsImitation.fixture("imds-uniform.json").replace("virtualMachines/3", "virtualMachines/9")
                    .replace("render_3", "render_9"));
            assertEquals(0, deleteMe(imds, connection).code());
        }
        client(queue).sendMessage("this is not a removal request");

        String accepted = once(config);

        assertEquals("4", tag(), "the count lowered by one as the request is taken on: " + accepted);
        assertEquals("lighting", arm.state().resourceGroup(RG).orElseThrow().tags().get("team"));
        assertEquals(2, client(queue + "-poison").getProperties().getApproximateMessagesCount(),
                "the unknown instance and the unreadable message are set aside: " + accepted);

        Thread.sleep(1_500);
        String removed = once(config);

        assertFalse(arm.state().scaleSet(RG, "render").orElseThrow().instance("3").isPresent(), removed);
        assertEquals(1L, requests(RequestKind.DELETE), "one delete call: " + removed);
        assertEquals("4", tag(), "the second delivery lowers nothing: " + removed);
        assertTrue(removed.contains("removal-duplicate"), removed);
        assertEquals(0L, requests(RequestKind.PATCH_CAPACITY), "the removed instance is not replaced");
        assertEquals(4, arm.state().scaleSet(RG, "render").orElseThrow().instances().size());
        assertEquals(0, client(queue).getProperties().getApproximateMessagesCount(), "every message answered");
    }
}
