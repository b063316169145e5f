package io.hpcscale.scaler.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.ForwardingCloudProvider;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.VmShape;
import io.hpcscale.scaler.removal.FakeRemovalQueue;
import io.hpcscale.scaler.removal.RemovalRequest;
import io.hpcscale.scaler.removal.VmResourceId;
import io.hpcscale.scaler.fixed.StoredTarget;
import io.hpcscale.scaler.fixed.TargetSource;
import io.hpcscale.scaler.fixed.TargetUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Nodes removing themselves, on a fixed pool of the simulated cloud, through the scaler's whole cycle: at-least-once
 * delivery never lowers the count twice, a count the scaler could not write is written on its next cycle (or by
 * the next scaler), and nothing replaces the removed instance meanwhile.
 */
class SelfRemovalTest {
    private final ScalerFixture fixture = new ScalerFixture();
    private final FakeRemovalQueue queue = new FakeRemovalQueue(fixture.clock, 5);
    private final DocumentStore documents = new DocumentStore(fixture.memory);
    private final StoredTarget stored = new StoredTarget(documents, "r", fixture.clock);
    private final AtomicInteger failWrites = new AtomicInteger();

    /** The store's count, failing the next {@code failWrites} writes as a Resource Manager outage would. */
    private final TargetSource target = new TargetSource() {
        @Override
        public OptionalInt read() throws TargetUnavailableException {
            return stored.read();
        }

        @Override
        public void write(int count, String setBy) throws TargetUnavailableException {
            if (failWrites.getAndDecrement() > 0) {
                throw new TargetUnavailableException("injected: the count cannot be written");
            }
            stored.write(count, setBy);
        }

        @Override
        public String describe() {
            return stored.describe();
        }
    };

    private Scaler scaler(String host) {
        PoolConfig config = PoolConfigs.withDefaults("r", new VmShape(16, 65536, 0), 6, Map.of("target", "fixed"));
        if (!fixture.cloud.hasScaleSet("r")) {
            fixture.cloud.addScaleSet("r", 6, "r-vm", Duration.ZERO);
        }
        CloudProvider provider = new ForwardingCloudProvider(fixture.cloud.provider("r")) {
            @Override
            public boolean manages(String resourceGroup, String scaleSet) {
                return resourceGroup.equals("rg") && scaleSet.equals("r");
            }
        };
        ScalerEvents events = new ScalerEvents(documents, Duration.ofDays(7), true);
        events.addListener(fixture.events::add);
        return TestScalers.scaler(List.of(new PoolRuntime(config, provider, target)), documents, events,
                fixture.clock, host, new RemovalInbox(queue, Duration.ofMinutes(1)));
    }

    private void asks(String instance) throws Exception {
        queue.send(new RemovalRequest(VmResourceId.parse("/subscriptions/s/resourceGroups/rg/providers/"
                + "Microsoft.Compute/virtualMachineScaleSets/r/virtualMachines/" + instance), "r", null,
                fixture.clock.instant(), "hpcscale-delete-me on r-vm00" + instance, "frame done"));
    }

    private int count() throws Exception {
        return stored.read().getAsInt();
    }

    private void cycle(Scaler scaler) throws Exception {
        scaler.runOnce(fixture.clock.instant());
        fixture.clock.advance(Duration.ofSeconds(90));
    }

    @Test
    void aRemovalIsTakenOnOnceAndACountNotWrittenIsWrittenByTheNextScaler() throws Exception {
        stored.write(4, "test");
        Scaler first = scaler("host-1");
        cycle(first);
        assertEquals(4, fixture.active("r"));

        asks("2");
        failWrites.set(1);
        cycle(first);
        assertTrue(queue.messages().isEmpty(), "taken on: the state, not the message, drives it from now");
        assertEquals(4, count(), "the write failed");
        assertEquals(4, fixture.active("r"), "r_2 is deleted from the next cycle; nothing else changes meanwhile");

        Scaler second = scaler("host-2");
        first.shutDown(Duration.ZERO);
        cycle(second);
        assertEquals(3, count(), "written by the next scaler, once");
        assertTrue(fixture.cloud.instances("r").stream().noneMatch(i -> i.id().equals("r_2")), "r_2 deleted");
        assertEquals(3, fixture.active("r"), "and not replaced");

        asks("2");
        cycle(second);
        cycle(second);
        assertEquals(3, count(), "a second delivery lowers nothing");
        assertEquals(3, fixture.active("r"));
        assertEquals(1, fixture.eventsOf(EventKind.REMOVAL_DUPLICATE).size());
        assertTrue(queue.messages().isEmpty(), "every message answered");
    }

    @Test
    void aCountSetBySomeoneBetweenTheReadAndTheRetryStands() throws Exception {
        stored.write(4, "test");
        Scaler scaler = scaler("host-1");
        cycle(scaler);
        asks("1");
        failWrites.set(1);
        cycle(scaler);
        stored.write(10, "the render manager");
        cycle(scaler);
        assertEquals(10, count(), "the removal read 4; 10 was set since, and is not overwritten with 3");
    }

    @Test
    void unreadableAndTooOftenTriedMessagesAreSetAsideWithAnEvent() throws Exception {
        stored.write(2, "test");
        Scaler scaler = scaler("host-1");
        cycle(scaler);
        queue.sendText("{\"version\":7}");
        asks("9");
        cycle(scaler);
        assertEquals(2, queue.poisonQueue().size());
        assertEquals(2, fixture.eventsOf(EventKind.REMOVAL_SET_ASIDE).size());
        assertEquals(2, count());
        assertEquals(2, fixture.active("r"));
    }
}
