package io.hpcscale.scaler.cloud;

import io.hpcscale.scaler.pool.StopAction;
import java.util.List;

/** One pool's scale set in a {@link SimulatedCloud}. */
public final class SimulatedCloudProvider implements CloudProvider {
    private final SimulatedCloud cloud;
    private final String pool;

    SimulatedCloudProvider(SimulatedCloud cloud, String pool) {
        this.cloud = cloud;
        this.pool = pool;
    }

    @Override
    public List<Instance> list() throws CloudException {
        return cloud.list(pool);
    }

    @Override
    public void start(List<Instance> instances) throws CloudException {
        cloud.start(pool, instances);
    }

    @Override
    public void stop(List<Instance> instances, StopAction action) throws CloudException {
        cloud.stop(pool, instances, action);
    }

    @Override
    public boolean canCreate() {
        return true;
    }

    @Override
    public List<Instance> create(int count) throws CloudException {
        return cloud.create(pool, count);
    }

    @Override
    public String describe() {
        return "simulated scale set " + pool;
    }
}
