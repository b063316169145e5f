package io.hpcscale.cloud.azure;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.testing.TestCertificate;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.scaler.Programs;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The fake Azure Resource Manager, started once per test JVM on the port the module's surefire configuration
 * points {@code IDENTITY_ENDPOINT} at, so the production credential gets its token from it as from a managed
 * identity. This JVM trusts the test certificate the way an administrator makes a JVM trust a private CA; tests
 * share the fake and keep apart by resource group. Compute's throttling buckets are per subscription, so each test
 * starts with them full: the budget one test spends is not another's.
 */
public final class FakeArmServer implements BeforeAllCallback, BeforeEachCallback {
    public static final String IDENTITY_HEADER = "fake-arm-identity-header";
    private static FakeArm arm;

    private record Closing(FakeArm arm) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            arm.close();
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        synchronized (FakeArmServer.class) {
            if (arm == null) {
                TestCertificate certificate = TestCertificate.get();
                certificate.trustInThisJvm();
                arm = FakeArm.start(certificate, Integer.getInteger("fakeArm.port", 47443));
                arm.identity().expectHeader(IDENTITY_HEADER);
                context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(FakeArmServer.class.getName(),
                        new Closing(arm));
            }
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        arm().buckets().refill();
    }

    public static FakeArm arm() {
        if (arm == null) {
            throw new IllegalStateException("annotate the test class with @ExtendWith(FakeArmServer.class)");
        }
        return arm;
    }

    /**
     * Scaler settings for azure pools on the fake: the custom cloud at its address, the default credential, and
     * {@code properties} (full keys) on top.
     */
    public static Settings settings(Map<String, String> properties) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("azure.cloud", "custom");
        values.put("azure.resourceManagerEndpoint", arm().baseUrl() + "/");
        values.put("azure.subscriptionId", arm().subscriptionId());
        values.put("azure.operationTimeout", "30s");
        values.putAll(properties);
        return new ConfigLoader(ConfigCatalog.installed()).fromMap(values, Programs.SCALER);
    }
}
