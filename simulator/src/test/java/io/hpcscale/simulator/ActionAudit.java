package io.hpcscale.simulator;

import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.ForwardingCloudProvider;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceResults;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.pool.StopAction;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Watches every start and stop the scalers ask of a simulated cloud, with each instance's state at that moment: a
 * start of an instance already starting or running, or a stop of one already stopped, is a doubled action.
 */
public final class ActionAudit {
    private final SimulatedCloud cloud;
    private final Clock clock;
    private final List<String> doubled = new ArrayList<>();
    private final List<String> started = new ArrayList<>();
    private final List<String> stopped = new ArrayList<>();
    private long starts;
    private long stops;
    private Runnable duringCall = () -> { };

    public ActionAudit(SimulatedCloud cloud, Clock clock) {
        this.cloud = cloud;
        this.clock = clock;
    }

    /**
     * Runs as each start or stop is made, before the instances' states are checked and the call reaches the cloud:
     * a race to play against the call in flight.
     */
    public void duringEachCall(Runnable race) {
        duringCall = race;
    }

    public CloudProvider watch(CloudProvider provider, String pool) {
        return new ForwardingCloudProvider(provider) {
            @Override
            public InstanceResults start(List<Instance> instances) throws CloudException, InterruptedException {
                duringCall.run();
                Map<String, PowerState> now = states(pool);
                for (Instance instance : instances) {
                    starts++;
                    started.add(instance.id() + " at " + clock.instant());
                    if (now.get(instance.id()) != PowerState.STOPPED) {
                        doubled.add("start of " + instance.id() + " while " + now.get(instance.id()));
                    }
                }
                return super.start(instances);
            }

            @Override
            public InstanceResults stop(List<Instance> instances, StopAction action)
                    throws CloudException, InterruptedException {
                duringCall.run();
                Map<String, PowerState> now = states(pool);
                for (Instance instance : instances) {
                    stops++;
                    stopped.add(instance.id() + " at " + clock.instant());
                    if (now.get(instance.id()) == null || !now.get(instance.id()).active()) {
                        doubled.add("stop of " + instance.id() + " while " + now.get(instance.id()));
                    }
                }
                return super.stop(instances, action);
            }
        };
    }

    private Map<String, PowerState> states(String pool) {
        return cloud.instances(pool).stream().collect(Collectors.toMap(Instance::id, Instance::state,
                (a, b) -> a));
    }

    public List<String> doubled() {
        return List.copyOf(doubled);
    }

    /** Each start asked, in order: "p_1 at 2026-11-22T08:01:00Z". */
    List<String> started() {
        return List.copyOf(started);
    }

    /** Each stop asked, in order: "p_1 at 2026-11-22T08:21:00Z". */
    List<String> stopped() {
        return List.copyOf(stopped);
    }

    public long starts() {
        return starts;
    }

    public long stops() {
        return stops;
    }
}
