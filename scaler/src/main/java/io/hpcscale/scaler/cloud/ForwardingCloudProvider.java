package io.hpcscale.scaler.cloud;

import io.hpcscale.scaler.documents.GrowthAsked;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.pool.VmShape;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A provider that passes every call to another: extend it to watch or disturb one call (count the starts, fail the
 * third stop, die just after a start returns) without repeating the others.
 */
public abstract class ForwardingCloudProvider implements CloudProvider {
    protected final CloudProvider delegate;

    protected ForwardingCloudProvider(CloudProvider delegate) {
        this.delegate = delegate;
    }

    @Override
    public List<Instance> list() throws CloudException, InterruptedException {
        return delegate.list();
    }

    @Override
    public InstanceResults start(List<Instance> instances) throws CloudException, InterruptedException {
        return delegate.start(instances);
    }

    @Override
    public InstanceResults stop(List<Instance> instances, StopAction action)
            throws CloudException, InterruptedException {
        return delegate.stop(instances, action);
    }

    @Override
    public Optional<VmShape> vmShape() throws CloudException, InterruptedException {
        return delegate.vmShape();
    }

    @Override
    public List<String> tidy() throws CloudException, InterruptedException {
        return delegate.tidy();
    }

    @Override
    public boolean manages(String resourceGroup, String scaleSet) {
        return delegate.manages(resourceGroup, scaleSet);
    }

    @Override
    public Map<String, Object> nodeFacts() {
        return delegate.nodeFacts();
    }

    @Override
    public boolean spot() {
        return delegate.spot();
    }

    @Override
    public Map<String, GrowthAsked> growing() {
        return delegate.growing();
    }

    @Override
    public void recall(Map<String, GrowthAsked> growing) {
        delegate.recall(growing);
    }

    @Override
    public boolean canCreate() {
        return delegate.canCreate();
    }

    @Override
    public CreateResult create(int count) throws CloudException, InterruptedException {
        return delegate.create(count);
    }

    @Override
    public String account() {
        return delegate.account();
    }

    @Override
    public String describe() {
        return delegate.describe();
    }
}
