package io.hpcscale.cloud.azure;

import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.cloud.CallGate;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.CloudProviderContract;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.Fault;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The azure provider, through the real management SDK against the fake Resource Manager, keeps the provider
 * contract: a Uniform scale set of two deallocated instances, Azure's own 429 on its listing.
 */
@ExtendWith(FakeArmServer.class)
class AzureProviderContractTest extends CloudProviderContract {
    private static final AtomicInteger GROUPS = new AtomicInteger();

    private final FakeArm arm = FakeArmServer.arm();
    private final String rg = "rg-contract-" + GROUPS.incrementAndGet();
    private final TestPace pace = TestPace.startingNow();

    @AfterEach
    void clearFaults() {
        arm.faults().clear();
    }

    @Override
    protected CloudProvider provider() {
        arm.resourceGroup(rg, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(rg, "hb").instances(2, PowerState.DEALLOCATED));
        Map<String, String> values = new LinkedHashMap<>();
        values.put("pool.p.provider", "azure");
        values.put("pool.p.max", "100");
        values.put("pool.p.azure.resourceGroup", rg);
        values.put("pool.p.azure.scaleSet", "hb");
        Settings settings = FakeArmServer.settings(values);
        return new AzureProviders(new AzureClients(AzureSettings.from(settings), null, pace), CallGate.ALWAYS_OPEN, false)
                .forPool(settings.pool("p"));
    }

    @Override
    protected void throttleTheNextListing() {
        arm.faults().inject("GET", rg + "/providers/Microsoft.Compute/virtualMachineScaleSets/hb/virtualMachines$",
                1, Fault.tooManyRequests(120));
    }

    /** Past Azure's retry-after and the provider's listing interval, on the provider's own clock. */
    @Override
    protected void settle() {
        pace.sleep(Duration.ofMinutes(3));
    }
}
