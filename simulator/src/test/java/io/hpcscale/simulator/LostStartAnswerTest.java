package io.hpcscale.simulator;

import static io.hpcscale.simulator.Clusters.cluster;
import static io.hpcscale.simulator.Clusters.pool;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.ForwardingCloudProvider;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceResults;
import io.hpcscale.scaler.cloud.PowerState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A start the cloud carried out but whose answer was lost, of an instance whose node never reports, seen next
 * already running: found by the soak (seeds 3194 and 10339), where such an instance ran for ever.
 */
class LostStartAnswerTest {
    @Test
    void aBrokenBootWhoseStartFailedIsStillStoppedAtItsBootTimeout() throws Exception {
        SimulatedCluster cluster = cluster(pool(1, 2, Duration.ofMinutes(2)), 2, Duration.ofMinutes(1));
        cluster.interceptProviders(provider -> new ForwardingCloudProvider(provider) {
            private boolean lost;

            @Override
            public InstanceResults start(List<Instance> instances) throws CloudException, InterruptedException {
                super.start(instances);
                if (!lost) {
                    lost = true;
                    throw new CloudException("the connection was reset before the answer came");
                }
                return InstanceResults.allDone(instances);
            }
        });
        cluster.cloud().breakBoots("p", 1);
        for (int minute = 0; minute < 40; minute += 2) {
            cluster.agentCycle();
            cluster.scalerCycle();
            cluster.clock().advance(Duration.ofMinutes(2));
        }
        Instance first = cluster.cloud().instances("p").get(0);
        assertEquals(PowerState.STOPPED, first.state(), "stopped at its boot timeout of 20m, its node never came");
        assertEquals(1, cluster.cloud().activeInstances(), "another instance serves the pool's min");
        assertEquals(1, cluster.cloud().upNodes("p").size(), "and its node is up");
    }
}
