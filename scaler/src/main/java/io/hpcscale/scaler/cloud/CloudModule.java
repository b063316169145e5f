package io.hpcscale.scaler.cloud;

import io.hpcscale.common.config.PoolSettings;
import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.check.Finding;
import io.hpcscale.scaler.fixed.TargetSource;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.run.RemovalInbox;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * A cloud that comes in its own module (Azure's is {@code cloud-azure}): found on the class path through
 * {@code META-INF/services/io.hpcscale.scaler.cloud.CloudModule}, used by the pools whose {@code provider} is its
 * {@link #name()}. The scaler's core knows no cloud by name (docs/adding-a-cloud.md).
 */
public interface CloudModule {
    /** The value of {@code pool.<name>.provider} that selects this cloud. */
    String name();

    /**
     * The cloud for one scaler: made once, when the first of its pools is, so that the pools share what is costly
     * (a credential, a client, a catalog).
     *
     * @throws io.hpcscale.common.config.ConfigException naming every setting it lacks or cannot use
     */
    Cloud open(Settings settings, CallGate gate);

    /**
     * The queue on which nodes ask to be removed, when the settings configure one for this cloud.
     *
     * @throws io.hpcscale.common.config.ConfigException naming every setting it lacks or cannot use
     */
    default Optional<RemovalInbox> removalInbox(Settings settings, Clock clock) {
        return Optional.empty();
    }

    /** One scaler's view of the cloud. */
    interface Cloud {
        /** @throws io.hpcscale.common.config.ConfigException naming every setting the pool lacks or cannot use */
        CloudProvider forPool(PoolSettings pool);

        /** Where a fixed pool's count lives, when the cloud keeps it (else the store does). */
        Optional<TargetSource> targetForPool(PoolSettings pool);

        /**
         * What {@code hpcscale-scaler check} says of the pool beyond its listing (rights, quota, settings), reading
         * only.
         */
        PoolFindings check(PoolConfig pool, PoolSettings settings) throws InterruptedException;

        /** The setting that names an instance's node, with its value: what to change when names do not match. */
        String nodeNaming(PoolSettings pool);
    }

    /** @param listable whether the listing is worth trying after these findings */
    record PoolFindings(List<Finding> findings, boolean listable) {
        public PoolFindings {
            findings = List.copyOf(findings);
        }
    }
}
