package io.hpcscale.cloud.azure.removal;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.identity.ManagedIdentityCredentialBuilder;
import io.hpcscale.common.cli.Version;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.cloud.azure.removal.InstanceMetadata.InstanceMetadataException;
import io.hpcscale.cloud.azure.removal.InstanceMetadata.VmIdentity;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import io.hpcscale.scaler.removal.RemovalMessageCodec;
import io.hpcscale.scaler.removal.RemovalQueue;
import io.hpcscale.scaler.removal.RemovalQueueException;
import io.hpcscale.scaler.removal.RemovalRequest;

/**
 * {@code hpcscale-delete-me}: run on a node, asks the scaler to delete this VM and lower its pool's target by one,
 * by putting a removal request on the removal queue. Which VM it is comes from the instance metadata service; the
 * queue is reached with the node's managed identity, or a connection string from a file only its user can read.
 */
@Command(name = "hpcscale-delete-me", mixinStandardHelpOptions = true, versionProvider = Version.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {"Ask hpcscale's scaler to delete this Azure VM and lower its pool's target by one, through the "
                + "removal queue. Exits 0 once the request is on the queue, 1 with a one-line explanation if not."},
        footer = {"", "Example, on a node at the end of its work:",
            "  hpcscale-delete-me --reason \"render job finished\" \\",
            "    --queue-url https://myaccount.queue.core.windows.net/hpcscale-removals"})
public final class DeleteMeCommand implements Callable<Integer> {
    static final String IMDS_ENVIRONMENT = "HPCSCALE_IMDS_ENDPOINT";
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(3);

    private final Clock clock;
    private final Map<String, String> environment;

    @Spec
    private CommandSpec spec;

    @Option(names = "--queue-url", paramLabel = "URL", description = "The removal queue, https://<account>.queue."
            + "core.windows.net/<queue>, signed in to with this VM's managed identity (it needs Storage Queue Data "
            + "Message Sender on the queue).")
    private String queueUrl;

    @Option(names = "--managed-identity-client-id", paramLabel = "ID", description = "With --queue-url: the client "
            + "id of the user-assigned managed identity to sign in with (default: the system-assigned one).")
    private String managedIdentityClientId;

    @Option(names = "--connection-string-file", paramLabel = "FILE", description = "Instead of --queue-url: a file "
            + "holding the storage account's connection string, readable by its user only (chmod 600).")
    private Path connectionStringFile;

    @Option(names = "--queue", paramLabel = "NAME", description = "With --connection-string-file: the queue's name.")
    private String queue;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, for the scaler's log and events.")
    private String reason;

    @Option(names = "--dry-run", description = "Print the message that would be sent, and send nothing.")
    private boolean dryRun;

    @Option(names = "--imds-endpoint", paramLabel = "URL", description = "The instance metadata service (default: "
            + "$" + IMDS_ENVIRONMENT + ", else http://169.254.169.254). For tests.")
    private URI imdsEndpoint;

    /** @param environment where {@value #IMDS_ENVIRONMENT} is looked up */
    public DeleteMeCommand(Clock clock, Map<String, String> environment) {
        this.clock = clock;
        this.environment = Map.copyOf(environment);
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        try {
            QueueAccess access = access();
            VmIdentity self = new InstanceMetadata(imdsEndpoint(), METADATA_TIMEOUT).read();
            RemovalRequest request = new RemovalRequest(self.vm(), self.scaleSet(), self.computerName(),
                    clock.instant().truncatedTo(ChronoUnit.MILLIS), sender(self), reason);
            if (dryRun) {
                out.println(new RemovalMessageCodec().encode(request));
                out.flush();
                return 0;
            }
            try (RemovalQueue removals = open(access)) {
                String id = removals.send(request);
                out.println("asked to remove " + request.vmName() + " (" + request.vm().id() + "): message " + id
                        + " on " + removals.describe());
            }
            out.flush();
            return 0;
        } catch (ConfigException e) {
            return fail(String.join("; ", e.problems()));
        } catch (InstanceMetadataException | RemovalQueueException e) {
            return fail(e.getMessage());
        } catch (IllegalArgumentException e) {
            return fail("the instance metadata do not make a removal request: " + e.getMessage());
        }
    }

    /** Who asks, for the scaler's log and events: this program, its version and the node. */
    private String sender(VmIdentity self) {
        return spec.name() + " " + Version.current() + " on "
                + (self.computerName() == null ? self.vm().name() : self.computerName());
    }

    /** Where to send; null for a dry run that names no queue. */
    private QueueAccess access() {
        if (queueUrl != null && connectionStringFile != null) {
            throw new ConfigException("--queue-url and --connection-string-file are both given: sign in with the "
                    + "managed identity (--queue-url) or with a connection string (--connection-string-file and "
                    + "--queue), not both");
        }
        if (queueUrl != null) {
            if (queue != null) {
                throw new ConfigException("--queue is given with --queue-url, which already names the queue: leave "
                        + "--queue out");
            }
            return new QueueAccess.WithIdentity(RemovalQueueSettings.queueUrl(queueUrl, "--queue-url"));
        }
        if (connectionStringFile != null) {
            if (queue == null) {
                throw new ConfigException("--queue is required with --connection-string-file: the name of the removal "
                        + "queue in that storage account");
            }
            return new QueueAccess.WithConnectionString(ConnectionStringSecret.readFile(connectionStringFile,
                    "--connection-string-file"), RemovalQueueSettings.checkName(queue, "--queue"));
        }
        if (dryRun) {
            return null;
        }
        throw new ConfigException("name the removal queue: --queue-url https://<account>.queue.core.windows.net/"
                + "<queue> (with this VM's managed identity), or --connection-string-file FILE and --queue NAME");
    }

    private URI imdsEndpoint() {
        if (imdsEndpoint != null) {
            return imdsEndpoint;
        }
        String fromEnvironment = environment.get(IMDS_ENVIRONMENT);
        if (fromEnvironment == null || fromEnvironment.isBlank()) {
            return InstanceMetadata.AZURE;
        }
        try {
            return URI.create(fromEnvironment.strip());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(IMDS_ENVIRONMENT + "=" + fromEnvironment + " is not a URL: unset it, or give "
                    + "the metadata service's base URL, e.g. http://127.0.0.1:8080");
        }
    }

    private RemovalQueue open(QueueAccess access) {
        HttpClient http = StorageQueueRemovalQueue.httpClient();
        TokenCredential credential = null;
        if (access instanceof QueueAccess.WithIdentity) {
            ManagedIdentityCredentialBuilder identity = new ManagedIdentityCredentialBuilder().httpClient(http);
            if (managedIdentityClientId != null) {
                identity.clientId(managedIdentityClientId);
            }
            credential = identity.build();
        }
        // Only sending: a message is never received here, so no message is ever poison.
        return StorageQueueRemovalQueue.open(access, credential, http, Integer.MAX_VALUE, clock);
    }

    private int fail(String explanation) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(spec.name() + ": " + explanation.replace('\n', ' '));
        err.flush();
        return 1;
    }
}
