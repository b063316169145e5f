package io.hpcscale.common.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the local protocol servers of the tests are: {@code test-servers/} at the top of the checkout. */
public final class TestServers {
    private TestServers() {
    }

    /** @throws IllegalStateException when they are not installed, saying how to install them */
    public static Path directory() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("test-servers/package.json"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("test-servers/ is not found above " + System.getProperty("user.dir"));
        }
        Path servers = dir.resolve("test-servers");
        if (!Files.isDirectory(servers.resolve("node_modules"))) {
            throw new IllegalStateException("the test servers are not installed: run scripts/install-test-dependencies "
                    + "(or npm ci in " + servers + ")");
        }
        return servers;
    }
}
