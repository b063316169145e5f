package io.hpcscale.simulator.soak;

import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** How many faults of each kind the soak injected, over all its scenarios, and how many calls they disturbed. */
final class FaultCounts {
    private final Map<Fault, Long> injected = new EnumMap<>(Fault.class);
    private long disturbedCalls;

    void injected(Fault fault) {
        injected.merge(fault, 1L, Long::sum);
    }

    void disturbed() {
        disturbedCalls++;
    }

    long of(Fault fault) {
        return injected.getOrDefault(fault, 0L);
    }

    long disturbedCalls() {
        return disturbedCalls;
    }

    /** "store-down 120, store-slow 80, ...", every kind named, in a fixed order. */
    String summary() {
        return Stream.of(Fault.values()).map(f -> f.label() + " " + of(f)).collect(Collectors.joining(", "));
    }
}
