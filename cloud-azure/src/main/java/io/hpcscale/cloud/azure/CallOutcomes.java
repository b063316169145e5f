package io.hpcscale.cloud.azure;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one power call did to each VM it named, by VM name: done, failed with the SDK's error, or unfinished (the
 * operation went on after the provider stopped waiting).
 */
final class CallOutcomes {
    private final Map<String, RuntimeException> failed = new LinkedHashMap<>();
    private final Map<String, String> unfinished = new LinkedHashMap<>();

    synchronized void failed(String vmName, RuntimeException why) {
        failed.put(vmName, why);
    }

    synchronized void unfinished(String vmName, String why) {
        unfinished.put(vmName, why);
    }

    synchronized RuntimeException failure(String vmName) {
        return failed.get(vmName);
    }

    synchronized String unfinishedBecause(String vmName) {
        return unfinished.get(vmName);
    }

    synchronized boolean anyFailed() {
        return !failed.isEmpty();
    }

    /** A failed VM the listing shows changed after all: the call did reach it. */
    synchronized void done(String vmName) {
        failed.remove(vmName);
    }

    synchronized Map<String, RuntimeException> failures() {
        return new LinkedHashMap<>(failed);
    }
}
