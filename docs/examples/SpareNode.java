package org.example.hpcscale;

import io.hpcscale.scaler.plan.CustomDecision;
import io.hpcscale.scaler.plan.PoolFacts;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Keeps one idle node ready in working hours (08:00 to 18:00 UTC), so that the first job of a burst does not wait
 * for a boot. Place it before idleDrain: {@code pool.<name>.decisions = scaleUp, drainCompletion, spareNode,
 * idleDrain}. The scaler bounds it like its own decisions: never beyond the pool's max, never a stop.
 */
public final class SpareNode implements CustomDecision {
    @Override
    public String name() {
        return "spareNode";
    }

    @Override
    public List<Request> decide(PoolFacts pool) {
        LocalTime time = LocalTime.ofInstant(pool.now(), ZoneOffset.UTC);
        if (time.isBefore(LocalTime.of(8, 0)) || !time.isBefore(LocalTime.of(18, 0))) {
            return List.of();
        }
        Optional<PoolFacts.Node> spare = pool.nodes().stream()
                .filter(n -> n.idleFor().isPresent() && !n.draining() && !n.neededByQueue())
                .min(Comparator.comparing(n -> n.idleFor().get()));
        if (spare.isPresent()) {
            return List.of(new Keep(spare.get().name(), "the spare node of working hours"));
        }
        boolean coming = pool.startsPlanned() > 0
                || pool.nodes().stream().anyMatch(n -> n.state() == PoolFacts.State.BOOTING);
        return coming ? List.of() : List.of(new Grow(1, "a spare node for working hours"));
    }
}
