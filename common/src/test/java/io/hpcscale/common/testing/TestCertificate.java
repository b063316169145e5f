package io.hpcscale.common.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for {@code localhost} and {@code 127.0.0.1}, made once per test JVM with the JDK's own
 * keytool: a PKCS#12 key store for the local servers (the Cosmos DB server, the fake Azure Resource Manager) and a
 * trust store holding only its certificate for the clients. The production clients trust it the way an
 * administrator makes a JVM trust a private CA: through {@code javax.net.ssl.trustStore}.
 */
public final class TestCertificate {
    public static final String PASSWORD = "hpcscale-test";
    private static TestCertificate instance;

    private final Path keyStore;
    private final Path trustStore;

    private TestCertificate(Path keyStore, Path trustStore) {
        this.keyStore = keyStore;
        this.trustStore = trustStore;
    }

    public static synchronized TestCertificate get() {
        if (instance == null) {
            instance = make();
        }
        return instance;
    }

    /** The server's key and certificate, PKCS#12, password {@link #PASSWORD}. */
    public Path keyStore() {
        return keyStore;
    }

    /** The certificate alone, PKCS#12, password {@link #PASSWORD}: what clients trust. */
    public Path trustStore() {
        return trustStore;
    }

    /** JVM options that make another JVM (an agent or scaler started as a process) trust the test servers. */
    public List<String> jvmOptions() {
        return List.of("-Djavax.net.ssl.trustStore=" + trustStore, "-Djavax.net.ssl.trustStorePassword=" + PASSWORD,
                "-Djavax.net.ssl.trustStoreType=PKCS12");
    }

    /** Makes this JVM's default trust (what the SDKs' HTTP clients use) the test certificate's. */
    public void trustInThisJvm() {
        System.setProperty("javax.net.ssl.trustStore", trustStore.toString());
        System.setProperty("javax.net.ssl.trustStorePassword", PASSWORD);
        System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
    }

    public SSLContext serverContext() {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, PASSWORD.toCharArray());
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(keys, PASSWORD.toCharArray());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(factory.getKeyManagers(), null, null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("the test certificate cannot be loaded", e);
        }
    }

    public SSLContext clientContext() {
        try (InputStream in = Files.newInputStream(trustStore)) {
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(in, PASSWORD.toCharArray());
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("the test certificate cannot be loaded", e);
        }
    }

    private static TestCertificate make() {
        try {
            Path dir = Files.createTempDirectory("hpcscale-test-certificate-");
            dir.toFile().deleteOnExit();
            Path keys = dir.resolve("server.p12");
            Path cert = dir.resolve("server.crt");
            Path trust = dir.resolve("trust.p12");
            keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "7",
                    "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
                    "-keystore", keys.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
            keytool("-exportcert", "-rfc", "-alias", "server", "-keystore", keys.toString(), "-storepass", PASSWORD,
                    "-file", cert.toString());
            keytool("-importcert", "-noprompt", "-alias", "server", "-file", cert.toString(), "-storetype", "PKCS12",
                    "-keystore", trust.toString(), "-storepass", PASSWORD);
            for (Path file : List.of(keys, cert, trust)) {
                file.toFile().deleteOnExit();
            }
            return new TestCertificate(keys, trust);
        } catch (IOException e) {
            throw new IllegalStateException("cannot make the test certificate: " + e.getMessage(), e);
        }
    }

    private static void keytool(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running keytool", e);
        }
    }
}
