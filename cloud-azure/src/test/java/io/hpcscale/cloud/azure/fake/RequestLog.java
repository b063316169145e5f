package io.hpcscale.cloud.azure.fake;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** Every request the fake answered, in order, so tests can assert what the SDK actually sent. */
public final class RequestLog {

    /**
     * One request. {@code status} is what the fake answered: 0 while it is still being held (a hang), -1 when
     * the server closed before answering it.
     * {@code at} is wall-clock time, since it measures the SDK's waits rather than the fake's clock.
     */
    public record Entry(Instant at, String method, String path, String query, int status, RequestKind kind,
                        String body) {
        @Override
        public String toString() {
            return method + " " + path + (query == null || query.isEmpty() ? "" : "?" + query) + " -> " + status
                + " [" + kind.label() + "]";
        }
    }

    private final List<Entry> entries = new ArrayList<>();

    /** Logged on arrival, so a hung request shows up while it hangs. */
    synchronized int begin(Entry entry) {
        entries.add(entry);
        return entries.size() - 1;
    }

    synchronized void finish(int index, int status) {
        Entry e = entries.get(index);
        entries.set(index, new Entry(e.at(), e.method(), e.path(), e.query(), status, e.kind(), e.body()));
    }

    public synchronized List<Entry> entries() {
        return List.copyOf(entries);
    }

    public synchronized List<Entry> entries(RequestKind kind) {
        return entries.stream().filter(e -> e.kind() == kind).toList();
    }

    public synchronized int count(RequestKind kind) {
        return (int) entries.stream().filter(e -> e.kind() == kind).count();
    }

    public synchronized int count(Predicate<Entry> which) {
        return (int) entries.stream().filter(which).count();
    }

    /** Requests to ARM proper: everything but the managed-identity token endpoint. */
    public synchronized int armRequests() {
        return count(e -> e.kind() != RequestKind.TOKEN);
    }

    public synchronized Map<RequestKind, Integer> counts() {
        Map<RequestKind, Integer> counts = new EnumMap<>(RequestKind.class);
        for (Entry e : entries) {
            counts.merge(e.kind(), 1, Integer::sum);
        }
        return counts;
    }

    /** Requests still waiting for their answer. */
    public synchronized int inFlight() {
        return count(e -> e.status() == 0);
    }

    public synchronized void clear() {
        entries.clear();
    }

    @Override
    public synchronized String toString() {
        StringBuilder sb = new StringBuilder();
        for (Entry e : entries) {
            sb.append(e).append('\n');
        }
        return sb.toString();
    }
}
