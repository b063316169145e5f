package io.hpcscale.cloud.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.cloud.azure.StandbyPoolSettings.VmState;
import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.Programs;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StandbyPoolSettingsTest {

    private static AzurePoolSettings pool(Map<String, String> extra) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("azure.subscriptionId", "00000000-0000-0000-0000-000000000001");
        values.put("pool.hb.provider", "azure");
        values.put("pool.hb.max", "10");
        values.put("pool.hb.azure.resourceGroup", "rg-hpc");
        values.put("pool.hb.azure.scaleSet", "vmss-hb");
        values.putAll(extra);
        Settings settings = new ConfigLoader(ConfigCatalog.installed()).fromMap(values, Programs.SCALER);
        return AzurePoolSettings.from(settings.pool("hb"), AzureSettings.from(settings));
    }

    private static String refusal(Map<String, String> extra) {
        return String.join("\n", assertThrows(ConfigException.class, () -> pool(extra)).problems());
    }

    @Test
    void aPoolNamesNoStandbyPoolByDefault() {
        assertNull(pool(Map.of()).standbyPool());
    }

    @Test
    void aStandbyPoolIsKeptDeallocatedUnlessToldOtherwise() {
        StandbyPoolSettings standby = pool(Map.of("pool.hb.azure.allowCreate", "true",
                "pool.hb.azure.standbyPool", "hb-standby", "pool.hb.azure.standbyPoolSize", "8")).standbyPool();

        assertEquals(new StandbyPoolSettings("hb-standby", VmState.DEALLOCATED, 8), standby);
    }

    @Test
    void aStandbyPoolNeedsAllowCreateAndASizeAndOneScaleSet() {
        String said = refusal(Map.of("pool.hb.azure.standbyPool", "hb-standby", "pool.hb.azure.vmsPerScaleSet", "10",
                "pool.hb.azure.template", "/etc/hpcscale/hb.json"));

        assertTrue(said.contains("pool.hb.azure.standbyPool needs pool.hb.azure.allowCreate = true"), said);
        assertTrue(said.contains("pool.hb.azure.standbyPoolSize is required"), said);
        assertTrue(said.contains("a standby pool serves one scale set"), said);
    }

    @Test
    void aNameAzureWouldRefuseAndASizeAboveItsBoundAreRefusedAtStart() {
        String said = refusal(Map.of("pool.hb.azure.allowCreate", "true", "pool.hb.azure.standbyPool", "hb_standby",
                "pool.hb.azure.standbyPoolSize", "2001"));

        assertTrue(said.contains("pool.hb.azure.standbyPool = hb_standby: Azure names a standby pool with 3 to 24 "
                + "letters, digits and hyphens"), said);
        assertTrue(said.contains("pool.hb.azure.standbyPoolSize = 2001 with pool.hb.max = 10: Azure allows at most "
                + "1000 VMs"), said);
    }

    @Test
    void aStandbyPoolAndAScaleSetOfMoreThanAThousandVmsBetweenThemAreRefused() {
        String said = refusal(Map.of("pool.hb.max", "900", "pool.hb.azure.allowCreate", "true",
                "pool.hb.azure.standbyPool", "hb-standby", "pool.hb.azure.standbyPoolSize", "101"));

        assertTrue(said.contains("pool.hb.azure.standbyPoolSize = 101 with pool.hb.max = 900: Azure allows at most "
                + "1000 VMs between a scale set and its standby pool"), said);
    }

    @Test
    void aStateOrSizeWithoutAStandbyPoolIsRefusedRatherThanIgnored() {
        String said = refusal(Map.of("pool.hb.azure.standbyPoolState", "hibernated"));

        assertTrue(said.contains("pool.hb.azure.standbyPoolState is set without pool.hb.azure.standbyPool"), said);
    }
}
