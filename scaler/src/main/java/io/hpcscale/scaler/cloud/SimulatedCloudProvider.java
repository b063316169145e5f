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
    public InstanceResults start(List<Instance> instances) throws CloudException {
        return cloud.start(pool, instances);
    }

    @Override
    public InstanceResults stop(List<Instance> instances, StopAction action) throws CloudException {
        return cloud.stop(pool, instances, action);
    }

    @Override
    public boolean spot() {
        return cloud.spot(pool);
    }

    @Override
    public boolean canCreate() {
        return true;
    }

    @Override
    public CreateResult create(int count) throws CloudException {
        return cloud.create(pool, count);
    }

    /** Every scale set of one simulated cloud shares its limits, as the pools of one subscription do on Azure. */
    @Override
    public String account() {
        return "simulated cloud";
    }

    @Override
    public String describe() {
        return "simulated scale set " + pool;
    }
}
