package io.hpcscale.scaler.metrics;

import io.hpcscale.scaler.cloud.AccessDeniedException;
import io.hpcscale.scaler.cloud.CapacityException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.CreateResult;
import io.hpcscale.scaler.cloud.ForwardingCloudProvider;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceResults;
import io.hpcscale.scaler.cloud.NotFoundException;
import io.hpcscale.scaler.cloud.QuotaException;
import io.hpcscale.scaler.cloud.ThrottledException;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.pool.VmShape;
import io.prometheus.metrics.core.metrics.Counter;
import java.util.List;
import java.util.Optional;

/**
 * Counts a pool's calls to its cloud by call and status: ok, partial (some instances failed), throttled, denied,
 * not-found, capacity, quota or failed. A call the scaler could not finish (interrupted) is not counted.
 */
public final class MeteredCloudProvider extends ForwardingCloudProvider {
    private final String pool;
    private final Counter calls;

    MeteredCloudProvider(CloudProvider delegate, String pool, Counter calls) {
        super(delegate);
        this.pool = pool;
        this.calls = calls;
    }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws CloudException, InterruptedException;
    }

    private <T> T count(String call, Call<T> body) throws CloudException, InterruptedException {
        try {
            T result = body.run();
            String status = result instanceof InstanceResults r && !r.failed().isEmpty() ? "partial" : "ok";
            calls.labelValues(pool, call, status).inc();
            return result;
        } catch (CloudException e) {
            calls.labelValues(pool, call, statusOf(e)).inc();
            throw e;
        }
    }

    static String statusOf(CloudException e) {
        if (e instanceof ThrottledException) {
            return "throttled";
        } else if (e instanceof AccessDeniedException) {
            return "denied";
        } else if (e instanceof NotFoundException) {
            return "not-found";
        } else if (e instanceof CapacityException) {
            return "capacity";
        } else if (e instanceof QuotaException) {
            return "quota";
        }
        return "failed";
    }

    @Override
    public List<Instance> list() throws CloudException, InterruptedException {
        return count("list", delegate::list);
    }

    @Override
    public InstanceResults start(List<Instance> instances) throws CloudException, InterruptedException {
        return count("start", () -> delegate.start(instances));
    }

    @Override
    public InstanceResults stop(List<Instance> instances, StopAction action)
            throws CloudException, InterruptedException {
        return count("stop", () -> delegate.stop(instances, action));
    }

    @Override
    public CreateResult create(int count) throws CloudException, InterruptedException {
        return count("create", () -> delegate.create(count));
    }

    @Override
    public List<String> tidy() throws CloudException, InterruptedException {
        return count("tidy", delegate::tidy);
    }

    @Override
    public Optional<VmShape> vmShape() throws CloudException, InterruptedException {
        return count("vm-shape", delegate::vmShape);
    }
}
