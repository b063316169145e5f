package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compute's own throttling, as token buckets per subscription (Microsoft Learn, troubleshooting API throttling
 * errors; ../shared/notes/azure-as-it-really-behaves.md, "Throttling"):
 * <ul>
 *   <li>listing a scale set's VMs spends {@code HighCostGetVMScaleSet3Min} (about 190 per 3 minutes) and
 *       {@code HighCostGetVMScaleSet30Min} (about 900 per 30 minutes), one per page, as used by Giant Swarm's
 *       azure-operator;</li>
 *   <li>start, stop and delete of scale-set VMs spend a bucket of 1,500 refilled 500 a minute; the notes give its
 *       size, not its name: {@code VMScaleSetVMActions} is the fake's name for it;</li>
 *   <li>polling an operation spends {@code GetOperation}: 45 at once, refilled 15 a minute, per resource (here per
 *       operation).</li>
 * </ul>
 * Every reply of a Compute request that spends a bucket carries {@code x-ms-ratelimit-remaining-resource} with
 * what is left; a request that finds its bucket empty gets 429 {@code OperationNotAllowed} with a
 * {@code TooManyRequests} detail naming the bucket and a Retry-After until a request fits again.
 */
public final class ComputeBuckets {
    /** One bucket's size and refill. */
    public record Limit(String name, int capacity, Duration window) {
        double refillPerSecond() {
            return capacity / (double) window.toSeconds();
        }
    }

    public static final Limit LIST_3_MIN = new Limit("HighCostGetVMScaleSet3Min", 190, Duration.ofMinutes(3));
    public static final Limit LIST_30_MIN = new Limit("HighCostGetVMScaleSet30Min", 900, Duration.ofMinutes(30));
    public static final Limit VM_ACTIONS = new Limit("VMScaleSetVMActions", 1500, Duration.ofMinutes(3));
    public static final Limit GET_OPERATION = new Limit("GetOperation", 45, Duration.ofMinutes(3));

    private static final class Bucket {
        final Limit limit;
        double tokens;
        Instant at;
        long spent;
        long refused;
        double lowest;

        Bucket(Limit limit, Instant now) {
            this.limit = limit;
            this.tokens = limit.capacity();
            this.lowest = limit.capacity();
            this.at = now;
        }

        double tokens(Instant now) {
            double refilled = Duration.between(at, now).toMillis() / 1000.0 * limit.refillPerSecond();
            return Math.min(limit.capacity(), tokens + Math.max(0, refilled));
        }

        void settle(Instant now) {
            tokens = tokens(now);
            at = now;
        }
    }

    private final Settings settings;
    private final Map<String, Bucket> buckets = new LinkedHashMap<>();

    ComputeBuckets(Settings settings) {
        this.settings = settings;
    }

    /** The buckets a request of this kind spends; {@code resource} keys per-resource buckets. */
    static List<Limit> spentBy(RequestKind kind) {
        return switch (kind) {
            case LIST -> List.of(LIST_3_MIN, LIST_30_MIN);
            case START, DEALLOCATE, POWEROFF, DELETE -> List.of(VM_ACTIONS);
            case OPERATION_POLL, OPERATION_RESULT -> List.of(GET_OPERATION);
            default -> List.of();
        };
    }

    /**
     * Spends one request of each bucket, or refuses it.
     *
     * @param resource the operation, for per-resource buckets
     * @return the header value to send, or null if the request spends no bucket
     * @throws Refused when a bucket is empty
     */
    synchronized String spend(RequestKind kind, String resource) {
        List<Limit> limits = spentBy(kind);
        if (limits.isEmpty()) {
            return null;
        }
        Instant now = settings.clock().instant();
        List<Bucket> charged = new ArrayList<>();
        for (Limit limit : limits) {
            Bucket bucket = bucket(limit, limit == GET_OPERATION ? resource : null, now);
            bucket.settle(now);
            charged.add(bucket);
        }
        for (Bucket bucket : charged) {
            if (bucket.tokens < 1) {
                bucket.refused++;
                throw new Refused(bucket.limit, header(charged, now),
                    (long) Math.ceil((1 - bucket.tokens) / bucket.limit.refillPerSecond()), now);
            }
        }
        charged.forEach(b -> {
            b.tokens -= 1;
            b.spent++;
            b.lowest = Math.min(b.lowest, b.tokens);
        });
        return header(charged, now);
    }

    /** Empties a bucket, as other clients of the subscription spending it would. */
    public synchronized void drain(Limit limit, int leave) {
        Bucket bucket = bucket(limit, null, settings.clock().instant());
        bucket.settle(settings.clock().instant());
        bucket.tokens = Math.min(bucket.tokens, leave);
    }

    /** Every bucket full again: the shared fake does this between tests. */
    public synchronized void refill() {
        buckets.clear();
    }

    /**
     * Per bucket name: requests spent, requests refused (per-operation buckets summed), and the lowest level the
     * bucket fell to (of any one operation's), for tests and the benchmark.
     */
    public synchronized Map<String, long[]> counts() {
        Map<String, long[]> counts = new LinkedHashMap<>();
        for (Bucket bucket : buckets.values()) {
            long[] c = counts.computeIfAbsent(bucket.limit.name(), n -> new long[] {0, 0, bucket.limit.capacity()});
            c[0] += bucket.spent;
            c[1] += bucket.refused;
            c[2] = Math.min(c[2], (long) Math.floor(bucket.lowest));
        }
        return counts;
    }

    private Bucket bucket(Limit limit, String resource, Instant now) {
        String key = resource == null ? limit.name() : limit.name() + "|" + resource;
        return buckets.computeIfAbsent(key, k -> new Bucket(limit, now));
    }

    private static String header(List<Bucket> buckets, Instant now) {
        List<String> parts = new ArrayList<>();
        for (Bucket bucket : buckets) {
            parts.add("Microsoft.Compute/" + bucket.limit.name() + ";" + (int) Math.floor(bucket.tokens(now)));
        }
        return String.join(",", parts);
    }

    /** A request refused for an empty bucket, answered as Compute answers it. */
    static final class Refused extends RuntimeException {
        private final transient ArmResponse response;

        Refused(Limit limit, String header, long retryAfterSeconds, Instant now) {
            super(limit.name());
            long wait = Math.max(1, retryAfterSeconds);
            ObjectNode body = ArmException.errorBody("OperationNotAllowed", "The server rejected the request "
                + "because too many requests have been received for this subscription.", null);
            ((ObjectNode) body.get("error")).set("details", Json.array().add(Json.object()
                .put("code", "TooManyRequests").put("target", limit.name())
                .put("message", "{\"operationGroup\":\"" + limit.name() + "\",\"startTime\":\"" + now
                    + "\",\"endTime\":\"" + now.plusSeconds(wait) + "\",\"allowedRequestCount\":"
                    + limit.capacity() + ",\"measuredRequestCount\":" + (limit.capacity() + 1) + "}")));
            response = ArmResponse.json(429, body).header("Retry-After", Long.toString(wait))
                .header("x-ms-ratelimit-remaining-resource", header);
        }

        ArmResponse response() {
            return response;
        }
    }
}
