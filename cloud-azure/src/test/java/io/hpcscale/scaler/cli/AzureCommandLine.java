package io.hpcscale.scaler.cli;

import io.hpcscale.cloud.azure.fake.FakeArm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The settings the scaler's command-line tests of azure pools start from. */
public final class AzureCommandLine {
    private AzureCommandLine() {
    }

    /** The store in {@code dir}, the fake as Resource Manager. */
    public static List<String> settings(FakeArm arm, Path dir) {
        return new ArrayList<>(List.of(
                "store.sqlite.path = " + dir.resolve("clusterload.db"),
                "azure.cloud = custom",
                "azure.resourceManagerEndpoint = " + arm.baseUrl() + "/",
                "azure.subscriptionId = " + arm.subscriptionId()));
    }
}
