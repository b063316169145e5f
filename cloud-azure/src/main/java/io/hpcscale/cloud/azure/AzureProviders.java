package io.hpcscale.cloud.azure;

import io.hpcscale.common.config.PoolSettings;
import io.hpcscale.scaler.cloud.CallGate;
import io.hpcscale.scaler.cloud.CloudModule;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.fixed.TargetSource;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Clock;
import java.util.Optional;

/**
 * One scaler's Azure: makes the providers of azure pools, which share one set of clients (one credential, one
 * token, one HTTP client) and one catalog of VM sizes, and checks them for {@code hpcscale-scaler check}.
 */
public final class AzureProviders implements CloudModule.Cloud {
    private final AzureClients clients;
    private final VmSizeCatalog sizes;
    private final CallGate gate;
    private final Clock clock;
    private final ScaleSetCheck check;

    /**
     * Time (how long a scale set asked to grow has been short of it) is the clients' pace.
     *
     * @param removalQueue whether a removal queue is configured, which needs the right to delete instances
     */
    public AzureProviders(AzureClients clients, CallGate gate, boolean removalQueue) {
        this.clients = clients;
        this.sizes = new VmSizeCatalog(clients);
        this.gate = gate;
        this.clock = clients.pace().clock();
        this.check = new ScaleSetCheck(clients, removalQueue);
    }

    /** @throws io.hpcscale.common.config.ConfigException naming every setting the pool lacks or cannot use */
    @Override
    public CloudProvider forPool(PoolSettings pool) {
        AzurePoolSettings settings = AzurePoolSettings.from(pool, clients.settings());
        return settings.vmsPerScaleSet() > 0
                ? new SpanningScaleSetProvider(clients, sizes, settings, gate, clock)
                : new AzureScaleSetProvider(clients, sizes, settings, gate);
    }

    /** Where a fixed pool's count lives: the tag {@code pool.<name>.targetTag} of its resource group. */
    @Override
    public Optional<TargetSource> targetForPool(PoolSettings pool) {
        return Optional.of(new ResourceGroupTagTarget(clients, AzurePoolSettings.from(pool, clients.settings())));
    }

    @Override
    public CloudModule.PoolFindings check(PoolConfig pool, PoolSettings settings) throws InterruptedException {
        ScaleSetCheck.Result result = check.check(AzurePoolSettings.from(settings, clients.settings()),
                pool.shapeSettings(), pool.stopAction());
        return new CloudModule.PoolFindings(result.findings(), result.scaleSetRead());
    }

    @Override
    public String nodeNaming(PoolSettings pool) {
        return pool.key("azure.nodeName") + " = " + pool.string("azure.nodeName");
    }
}
