package io.hpcscale.common.agent;

import io.hpcscale.common.config.Settings;
import java.util.Set;
import java.util.stream.Collectors;

/** The pools whose nodes serve only once their health check passed: those with {@code pool.<name>.healthCheck}. */
public final class CheckedPools {
    private CheckedPools() {
    }

    public static Set<String> fromSettings(Settings settings) {
        return settings.poolNames().stream()
                .filter(pool -> settings.pool(pool).optionalString("healthCheck").isPresent())
                .collect(Collectors.toUnmodifiableSet());
    }
}
