package io.hpcscale.scaler.run;

import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.EtagConflictException;
import io.hpcscale.scaler.documents.BootHealth;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.plan.EventKind;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * An administrator resumes a protected pool ({@code hpcscale-scaler resume POOL}): its boot health and any backoff
 * are cleared in its state, so the scaler starts instances for its jobs again at its next cycle. Written over the
 * version read: if the scaler writes the pool's state at the same moment, one of the two writes is refused and read
 * again (the command here, a few times; the scaler, at its next cycle).
 */
public final class PoolResume {
    private static final int ATTEMPTS = 3;

    private PoolResume() {
    }

    /**
     * @param events where the {@code resumed} event goes
     * @param who    who resumed it, for the event: "hpcscale-scaler resume on manager1"
     * @return what the pool's boots were before, or empty when it was not protected (nothing is written then)
     */
    public static Optional<BootHealth> resume(DocumentStore store, String pool, ScalerEvents events, Instant now,
            String who) {
        ScalerStateStore states = new ScalerStateStore(store);
        for (int attempt = 1; ; attempt++) {
            ScalerStateStore.Loaded loaded = states.read(pool);
            ScalerStateDocument state = loaded.state();
            if (!state.bootHealth().protectedNow()) {
                return Optional.empty();
            }
            try {
                states.write(state.withBootHealth(BootHealth.NONE).backoff(null, null), loaded.etag());
                events.action(new ScalerEvent(now, pool, EventKind.RESUMED, List.of(), "resumed by " + who
                        + ": it was protected since " + state.bootHealth().protectedSince() + " after "
                        + state.bootHealth().failedInARow() + " failed boots", Outcome.OK));
                return Optional.of(state.bootHealth());
            } catch (EtagConflictException e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
