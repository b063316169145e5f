package io.hpcscale.cloud.azure;

import io.hpcscale.cloud.azure.removal.RemovalQueueSettings;
import io.hpcscale.cloud.azure.removal.StorageQueueRemovalQueue;
import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.cloud.CallGate;
import io.hpcscale.scaler.cloud.CloudModule;
import io.hpcscale.scaler.run.RemovalInbox;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;

/**
 * Azure Virtual Machine Scale Sets as the scaler's cloud ({@code pool.<name>.provider = azure}), and the removal
 * queue on Azure Storage ({@code azure.removalQueue.*}).
 */
public final class AzureCloudModule implements CloudModule {
    private final Function<AzureSettings, AzureClients> clients;

    /** The module as the scaler finds it on its class path: clients made from the azure.* settings. */
    public AzureCloudModule() {
        this(AzureClients::new);
    }

    /** @param clients makes the clients from the azure.* settings (tests: trusting a local imitation) */
    public AzureCloudModule(Function<AzureSettings, AzureClients> clients) {
        this.clients = clients;
    }

    @Override
    public String name() {
        return "azure";
    }

    @Override
    public Cloud open(Settings settings, CallGate gate) {
        return new AzureProviders(clients.apply(AzureSettings.from(settings)), gate,
                RemovalQueueSettings.configured(settings));
    }

    @Override
    public Optional<RemovalInbox> removalInbox(Settings settings, Clock clock) {
        return RemovalQueueSettings.from(settings).map(queue -> new RemovalInbox(
                StorageQueueRemovalQueue.open(queue, settings, clock), queue.visibilityTimeout()));
    }
}
