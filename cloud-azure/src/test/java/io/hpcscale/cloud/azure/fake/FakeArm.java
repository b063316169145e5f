package io.hpcscale.cloud.azure.fake;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.hpcscale.common.testing.TestCertificate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fake Azure Resource Manager on https://127.0.0.1:{any free port}, for the real management SDK to talk to.
 *
 * <p>It knows nothing of the SDK: tests build clients from {@link #baseUrl()}, {@link #certificate()} and a
 * token from {@link #identity()}. Start one per test and close it; each has its own subscription and state.
 */
public final class FakeArm implements AutoCloseable {
    private final String subscriptionId = UUID.randomUUID().toString();
    private final String tenantId = UUID.randomUUID().toString();
    private final Settings settings = new Settings();
    private final ArmState state = new ArmState(subscriptionId, settings);
    private final Operations operations = new Operations(settings, subscriptionId);
    private final ManagedIdentity identity = new ManagedIdentity();
    private final Permissions permissions = new Permissions(identity.principalId());
    private final VmSizes sizes = new VmSizes();
    private final Faults faults = new Faults();
    private final RequestLog log = new RequestLog();
    private final ComputeBuckets buckets = new ComputeBuckets(settings);
    private final StandbyPools standbyPools = new StandbyPools();
    private final TestCertificate certificate;
    private final HttpsServer server;
    private final ExecutorService executor;
    private final ArmServer handler;
    private final DeploymentHandlers deployments;

    private FakeArm(TestCertificate certificate, int port) throws IOException {
        this.certificate = certificate;
        PowerActions actions = new PowerActions(operations, standbyPools);
        deployments = new DeploymentHandlers(state, operations, actions, permissions);
        Routes routes = new Routes(
            new ScaleSetHandlers(state, operations, actions, settings),
            new UniformHandlers(state, operations, actions, settings),
            new FlexibleHandlers(state, operations, actions, settings),
            new ResourceHandlers(state, permissions, sizes, settings),
            new OperationHandlers(operations),
            identity, deployments, new StandbyPoolHandlers(state, standbyPools, operations, settings));
        handler = new ArmServer(routes, state, identity, permissions, faults, log, buckets);
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(certificate.serverContext()));
        // Hung requests each hold a thread, so the pool must grow rather than queue.
        AtomicInteger threads = new AtomicInteger();
        executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fake-arm-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", handler);
        server.start();
        handler.base(baseUrl());
    }

    public static FakeArm start() {
        return start(TestCertificate.get());
    }

    public static FakeArm start(TestCertificate certificate) {
        return start(certificate, 0);
    }

    /**
     * On a fixed port: only for managed-identity tests, whose IDENTITY_ENDPOINT must be in the environment
     * before the JVM starts (the credential's MSAL layer reads the real environment, not Configuration).
     */
    public static FakeArm start(TestCertificate certificate, int port) {
        try {
            return new FakeArm(certificate, port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the fake ARM", e);
        }
    }

    /** https://127.0.0.1:port, no trailing slash. */
    public String baseUrl() {
        return "https://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Where IDENTITY_ENDPOINT should point. */
    public String identityEndpoint() {
        return baseUrl() + ManagedIdentity.PATH;
    }

    public String subscriptionId() {
        return subscriptionId;
    }

    public String tenantId() {
        return tenantId;
    }

    public TestCertificate certificate() {
        return certificate;
    }

    public Settings settings() {
        return settings;
    }

    public ArmState state() {
        return state;
    }

    public Operations operations() {
        return operations;
    }

    public ManagedIdentity identity() {
        return identity;
    }

    public Permissions permissions() {
        return permissions;
    }

    public VmSizes sizes() {
        return sizes;
    }

    public Faults faults() {
        return faults;
    }

    public RequestLog log() {
        return log;
    }

    /** A template spec version that deployments may name by {@code versionId} in {@code templateLink.id}. */
    public void templateSpec(String versionId, com.fasterxml.jackson.databind.JsonNode template) {
        deployments.addSpec(versionId, template);
    }

    public ComputeBuckets buckets() {
        return buckets;
    }

    public StandbyPools standbyPools() {
        return standbyPools;
    }

    /** Shorthand for the usual first step of a test. */
    public ResourceGroup resourceGroup(String name, String location, Map<String, String> tags) {
        return state.addResourceGroup(name, location, tags);
    }

    public ScaleSet scaleSet(ScaleSetSpec spec) {
        return state.add(spec);
    }

    @Override
    public void close() {
        handler.close();
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
