package io.hpcscale.scaler.cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.scaler.pool.StopAction;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What every {@link CloudProvider} must do, run against the simulated, command and Azure providers: the scaler's
 * restart safety and "unknown is not zero" rest on it. Starting or stopping an instance again changes nothing and
 * is not an error (a scaler killed in the middle of a call does it again); a listing that fails throws, typed, and
 * never answers with fewer instances; an action the cloud refuses for now is a typed error the scaler can back off
 * on.
 */
public abstract class CloudProviderContract {

    /** The provider of a pool of at least two instances, all stopped. */
    protected abstract CloudProvider provider() throws Exception;

    /** The next listing is refused with "try again later" (Azure's 429, the command's exit 75). */
    protected abstract void throttleTheNextListing() throws Exception;

    /** Lets what the last call asked for happen, and a later listing see it, as time would. */
    protected abstract void settle() throws Exception;

    private Instance first(CloudProvider provider) throws Exception {
        List<Instance> instances = provider.list();
        assertTrue(instances.size() >= 2, "at least two instances: " + instances);
        return instances.get(0);
    }

    private PowerState stateOf(CloudProvider provider, Instance instance) throws Exception {
        settle();
        return provider.list().stream().filter(i -> i.id().equals(instance.id())).findFirst().orElseThrow().state();
    }

    private static List<String> ids(InstanceResults results) {
        assertEquals(Map.of(), results.failed(), "nothing failed");
        return results.done().stream().map(Instance::id).toList();
    }

    @Test
    void listsEveryInstanceOnceStoppedAtFirst() throws Exception {
        List<Instance> instances = provider().list();
        assertEquals(instances.size(), instances.stream().map(Instance::id).distinct().count(), instances.toString());
        assertTrue(instances.stream().allMatch(i -> i.state() == PowerState.STOPPED), instances.toString());
    }

    @Test
    void startingAnInstanceAgainIsDoneAndChangesNothing() throws Exception {
        CloudProvider provider = provider();
        Instance instance = first(provider);
        assertEquals(List.of(instance.id()), ids(provider.start(List.of(instance))));
        settle();
        assertEquals(List.of(instance.id()), ids(provider.start(List.of(instance))), "started again: done, no error");
        assertTrue(stateOf(provider, instance).active(), "still starting or running");
        assertEquals(1, provider.list().stream().filter(i -> i.state().active()).count(), "no other started");
    }

    @Test
    void stoppingAnInstanceAgainIsDoneAndLeavesItStopped() throws Exception {
        CloudProvider provider = provider();
        Instance instance = first(provider);
        provider.start(List.of(instance));
        settle();
        assertEquals(List.of(instance.id()), ids(provider.stop(List.of(instance), StopAction.DEALLOCATE)));
        settle();
        assertEquals(List.of(instance.id()), ids(provider.stop(List.of(instance), StopAction.DEALLOCATE)),
                "stopped again: done, no error");
        assertEquals(PowerState.STOPPED, stateOf(provider, instance));
    }

    @Test
    void aThrottledListingIsAThrottledErrorNeverAShorterList() throws Exception {
        CloudProvider provider = provider();
        int instances = provider.list().size();
        settle();
        throttleTheNextListing();
        ThrottledException e = assertThrows(ThrottledException.class, provider::list);
        assertTrue(e.retryAfter() != null && !e.retryAfter().isNegative(), "says when to come back: " + e);
        settle();
        assertEquals(instances, provider.list().size(), "the next listing has them all again");
    }
}
