package io.hpcscale.cloud.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.Programs;
import io.hpcscale.scaler.cloud.CloudModule;
import io.hpcscale.scaler.cloud.CloudProviders;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AzureCloudModuleTest {
    @Test
    void theScalerFindsAzureOnItsClassPathByTheProvidersName() {
        List<CloudModule> modules = CloudProviders.installedModules();
        assertEquals(List.of("azure"), modules.stream().map(CloudModule::name).toList());
        assertTrue(modules.get(0) instanceof AzureCloudModule);
    }

    @Test
    void itsKeysComeWithItAndNoRemovalQueueIsMadeUnlessConfigured() {
        assertTrue(ConfigCatalog.installed().find("pool.hb.azure.scaleSet").isPresent());
        Settings settings = new ConfigLoader(ConfigCatalog.installed()).fromMap(Map.of(), Programs.SCALER);
        assertTrue(new AzureCloudModule().removalInbox(settings, Clock.systemUTC()).isEmpty());
    }
}
