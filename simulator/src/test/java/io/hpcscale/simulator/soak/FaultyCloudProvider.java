package io.hpcscale.simulator.soak;

import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.CreateResult;
import io.hpcscale.scaler.cloud.ForwardingCloudProvider;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceResults;
import io.hpcscale.scaler.cloud.ThrottledException;
import io.hpcscale.scaler.pool.StopAction;
import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;

/**
 * A pool's cloud with ARM's faults: 429 storms with a retry-after, calls that fail (before or after the cloud acted
 * on them, or for some instances of a batch), and operations that do not finish while the scaler waits. An
 * unfinished operation is carried out at once, some steps later (a start only: ARM lists an instance that is being
 * stopped as stopping at once), or never.
 */
final class FaultyCloudProvider extends ForwardingCloudProvider {
    // How long a provider waits for an operation before it reports it unfinished.
    private static final Duration WAIT_BOUND = Duration.ofMinutes(3);
    private final Faults faults;
    private final BiFunction<String, Runnable, Runnable> acceptedNow;

    /**
     * @param acceptedNow wraps an operation the cloud accepts now and carries out later, given its instance's node,
     *                    so that the checks judge it as asked ({@code SimulatedScheduler.acceptedNow})
     */
    FaultyCloudProvider(CloudProvider delegate, Faults faults, BiFunction<String, Runnable, Runnable> acceptedNow) {
        super(delegate);
        this.faults = faults;
        this.acceptedNow = acceptedNow;
    }

    private void before(String call) throws CloudException {
        faults.call("cloud " + call);
        if (faults.hits(Fault.CLOUD_429, 1)) {
            throw new ThrottledException("429 TooManyRequests: simulated ARM storm on " + call,
                    Duration.ofSeconds(5 + faults.random().nextInt(90)));
        }
        if (faults.hits(Fault.CLOUD_FAIL, 3)) {
            throw new CloudException("simulated ARM " + call + " failed: 500 InternalServerError");
        }
    }

    /** A call that reached the cloud, which acted on it, but whose answer was lost. */
    private boolean answerLost() {
        return faults.hits(Fault.CLOUD_FAIL, 4);
    }

    @Override
    public List<Instance> list() throws CloudException, InterruptedException {
        before("list");
        return super.list();
    }

    @Override
    public InstanceResults start(List<Instance> instances) throws CloudException, InterruptedException {
        before("start");
        if (faults.on(Fault.CLOUD_UNFINISHED)) {
            faults.slow(WAIT_BOUND);
            InstanceResults.Builder results = new InstanceResults.Builder();
            for (Instance instance : instances) {
                switch (faults.random().nextInt(4)) {
                    case 0 -> results.done(instance);
                    case 1 -> unfinished(results, instance, () -> delegate.start(List.of(instance)));
                    case 2 -> {
                        faults.defer(1 + faults.random().nextInt(6),
                                acceptedNow.apply(instance.nodeName(), () -> startLate(instance)));
                        results.unfinished(instance, "simulated start still running when the wait ended");
                    }
                    default -> results.unfinished(instance, "simulated start accepted, then lost by the cloud");
                }
            }
            InstanceResults built = results.build();
            if (!built.done().isEmpty()) {
                super.start(built.done());
            }
            return built;
        }
        InstanceResults results = partly(instances);
        if (answerLost()) {
            throw new CloudException("simulated ARM start: the connection was reset before the answer came");
        }
        return results;
    }

    @Override
    public InstanceResults stop(List<Instance> instances, StopAction action)
            throws CloudException, InterruptedException {
        before("stop");
        if (faults.on(Fault.CLOUD_UNFINISHED)) {
            faults.slow(WAIT_BOUND);
            InstanceResults.Builder results = new InstanceResults.Builder();
            for (Instance instance : instances) {
                switch (faults.random().nextInt(3)) {
                    case 0 -> results.done(instance);
                    case 1 -> unfinished(results, instance, () -> delegate.stop(List.of(instance), action));
                    default -> results.unfinished(instance, "simulated stop accepted, then lost by the cloud");
                }
            }
            InstanceResults built = results.build();
            if (!built.done().isEmpty()) {
                super.stop(built.done(), action);
            }
            return built;
        }
        InstanceResults results = super.stop(instances, action);
        if (answerLost()) {
            throw new CloudException("simulated ARM stop: the connection was reset before the answer came");
        }
        return results;
    }

    @Override
    public CreateResult create(int count) throws CloudException, InterruptedException {
        before("create");
        CreateResult result = super.create(count);
        if (answerLost()) {
            throw new CloudException("simulated ARM create: the connection was reset before the answer came");
        }
        return result;
    }

    /** The cloud does it now, but the scaler stops waiting before it hears so. */
    private interface Operation {
        InstanceResults run() throws CloudException, InterruptedException;
    }

    private static void unfinished(InstanceResults.Builder results, Instance instance, Operation operation)
            throws CloudException, InterruptedException {
        operation.run();
        results.unfinished(instance, "simulated operation still running when the wait ended");
    }

    private void startLate(Instance instance) {
        try {
            delegate.start(List.of(instance));
        } catch (CloudException e) {
            throw new IllegalStateException("the simulated cloud refused a start it had accepted", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Now and then one instance of a batch is refused while the others start. */
    private InstanceResults partly(List<Instance> instances) throws CloudException, InterruptedException {
        if (instances.size() < 2 || !faults.hits(Fault.CLOUD_FAIL, 3)) {
            return super.start(instances);
        }
        Instance refused = instances.get(faults.random().nextInt(instances.size()));
        InstanceResults results = super.start(instances.stream().filter(i -> !i.equals(refused)).toList());
        InstanceResults.Builder builder = new InstanceResults.Builder();
        results.done().forEach(builder::done);
        results.failed().forEach(builder::failed);
        results.unfinished().forEach(builder::unfinished);
        builder.failed(refused, new CloudException("simulated ARM: starting " + refused.id() + " failed: "
                + "500 InternalServerError"));
        return builder.build();
    }
}
