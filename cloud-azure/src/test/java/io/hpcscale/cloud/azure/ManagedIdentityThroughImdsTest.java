package io.hpcscale.cloud.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.testing.TestCertificate;
import io.hpcscale.scaler.cli.ScalerMain;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.ImdsIdentity;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scaler on an Azure VM whose only identity source is the instance metadata service: {@code hpcscale-scaler
 * check} in its own JVM, with no App Service variables and IMDS where MSAL4J looks for it
 * ({@code AZURE_POD_IDENTITY_AUTHORITY_HOST}), against the fake Resource Manager accepting only tokens for the
 * cloud's Resource Manager audience, which differs from its endpoint as in the sovereign clouds.
 */
@ExtendWith(FakeArmServer.class)
class ManagedIdentityThroughImdsTest {
    private static final String RG = "rg-imds";
    private static final String AUDIENCE = "https://management.core.windows.net/";

    @TempDir
    Path dir;

    private final FakeArm arm = FakeArmServer.arm();

    @AfterEach
    void acceptEveryAudienceAgain() {
        arm.identity().acceptAudiences();
    }

    @Test
    void theTokenComesFromImdsForTheResourceManagerAudienceAndCheckPasses() throws Exception {
        arm.resourceGroup(RG, "westeurope", Map.of());
        arm.scaleSet(ScaleSetSpec.uniform(RG, "hb").instances(2, PowerState.RUNNING));
        Path config = Files.write(dir.resolve("hpcscale.properties"), List.of(
                "store.sqlite.path = " + dir.resolve("clusterload.db"),
                "azure.cloud = custom",
                "azure.resourceManagerEndpoint = " + arm.baseUrl() + "/",
                "azure.resourceManagerAudience = " + AUDIENCE,
                "azure.credential = managedIdentity",
                "azure.subscriptionId = " + arm.subscriptionId(),
                "pool.hb.provider = azure",
                "pool.hb.max = 2",
                "pool.hb.azure.resourceGroup = " + RG,
                "pool.hb.azure.scaleSet = hb"));
        arm.identity().acceptAudiences(AUDIENCE, AUDIENCE.substring(0, AUDIENCE.length() - 1));

        try (ImdsIdentity imds = new ImdsIdentity(arm.identity(), AUDIENCE)) {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString()));
            command.addAll(TestCertificate.get().jvmOptions());
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), ScalerMain.class.getName(),
                    "check", "--config", config.toString()));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().keySet().removeIf(k -> k.startsWith("IDENTITY_") || k.startsWith("MSI_")
                    || k.startsWith("AZURE_") || k.startsWith("HPCSCALE_"));
            builder.environment().put("AZURE_POD_IDENTITY_AUTHORITY_HOST", imds.authorityHost());
            Process process = builder.start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), output);

            assertEquals(List.of(AUDIENCE), imds.askedFor().stream().distinct().toList(), output);
            assertTrue(output.contains("signed in to Azure: the VM's managed identity")
                    && output.contains("2 instances listed by Uniform scale set hb"), output);
            assertEquals(0, process.exitValue(), output);
        }
    }
}
