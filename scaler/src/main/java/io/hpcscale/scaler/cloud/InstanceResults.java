package io.hpcscale.scaler.cloud;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a start or stop call did to each instance it was given: a batch can half-succeed, and what did start must be
 * recorded as started.
 *
 * @param done       instances the call was carried out for
 * @param failed     instances it was not, each with why
 * @param unfinished instances whose operation was accepted but had not ended when the provider stopped waiting
 *                   (its bound, or the scaler shutting down), each with why: the next listing shows what it did
 */
public record InstanceResults(List<Instance> done, Map<Instance, CloudException> failed,
        Map<Instance, String> unfinished) {
    public InstanceResults {
        done = List.copyOf(done);
        failed = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(failed));
        unfinished = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(unfinished));
    }

    public InstanceResults(List<Instance> done, Map<Instance, CloudException> failed) {
        this(done, failed, Map.of());
    }

    public static InstanceResults allDone(List<Instance> instances) {
        return new InstanceResults(instances, Map.of());
    }

    public static InstanceResults allFailed(List<Instance> instances, CloudException why) {
        Map<Instance, CloudException> failed = new LinkedHashMap<>();
        instances.forEach(i -> failed.put(i, why));
        return new InstanceResults(List.of(), failed);
    }

    /** Collects results one instance at a time. */
    public static final class Builder {
        private final List<Instance> done = new ArrayList<>();
        private final Map<Instance, CloudException> failed = new LinkedHashMap<>();
        private final Map<Instance, String> unfinished = new LinkedHashMap<>();

        public Builder done(Instance instance) {
            done.add(instance);
            return this;
        }

        public Builder failed(Instance instance, CloudException why) {
            failed.put(instance, why);
            return this;
        }

        public Builder unfinished(Instance instance, String why) {
            unfinished.put(instance, why);
            return this;
        }

        public InstanceResults build() {
            return new InstanceResults(done, failed, unfinished);
        }
    }
}
