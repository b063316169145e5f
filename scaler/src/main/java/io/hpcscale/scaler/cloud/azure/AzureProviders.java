package io.hpcscale.scaler.cloud.azure;

import io.hpcscale.common.config.PoolSettings;
import io.hpcscale.scaler.cloud.CallGate;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.fixed.TargetSource;
import java.time.Clock;

/**
 * Makes the providers of azure pools; they share one set of clients (one credential, one token, one HTTP client)
 * and one catalog of VM sizes.
 */
public final class AzureProviders {
    private final AzureClients clients;
    private final VmSizeCatalog sizes;
    private final CallGate gate;
    private final Clock clock;

    /** Time (how long a scale set asked to grow has been short of it) is the clients' pace. */
    public AzureProviders(AzureClients clients, CallGate gate) {
        this.clients = clients;
        this.sizes = new VmSizeCatalog(clients);
        this.gate = gate;
        this.clock = clients.pace().clock();
    }

    /** @throws io.hpcscale.common.config.ConfigException naming every setting the pool lacks or cannot use */
    public CloudProvider forPool(PoolSettings pool) {
        AzurePoolSettings settings = AzurePoolSettings.from(pool, clients.settings());
        return settings.vmsPerScaleSet() > 0
                ? new SpanningScaleSetProvider(clients, sizes, settings, gate, clock)
                : new AzureScaleSetProvider(clients, sizes, settings, gate);
    }

    /** Where a fixed pool's count lives: the tag {@code pool.<name>.targetTag} of its resource group. */
    public TargetSource targetForPool(PoolSettings pool) {
        return new ResourceGroupTagTarget(clients, AzurePoolSettings.from(pool, clients.settings()));
    }
}
