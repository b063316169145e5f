package io.hpcscale.cloud.azure;

import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.MutableClock;
import io.hpcscale.cloud.azure.fake.RequestLog;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The shared fake Resource Manager on one test's settable clock, with the provider's pace on the same clock: what
 * the tests of half an hour of Azure use. {@link #close()} gives the next test the fake as it found it.
 */
public final class PacedFakeArm implements AutoCloseable {
    private final FakeArm arm;
    private final MutableClock clock = MutableClock.startingNow();
    private final TestPace pace = new TestPace(clock);
    private final Clock clockBefore;
    private final int logBefore;

    /** Puts the shared fake on a new clock and adds the test's resource group. */
    public PacedFakeArm(FakeArm arm, String resourceGroup) {
        this.arm = arm;
        this.clockBefore = arm.settings().clock();
        arm.settings().clock(clock);
        arm.resourceGroup(resourceGroup, "westeurope", Map.of());
        this.logBefore = arm.log().entries().size();
    }

    public MutableClock clock() {
        return clock;
    }

    public TestPace pace() {
        return pace;
    }

    /** The requests the fake answered since this test began. */
    public List<RequestLog.Entry> requests() {
        List<RequestLog.Entry> all = arm.log().entries();
        return all.subList(logBefore, all.size());
    }

    @Override
    public void close() {
        arm.settings().clock(clockBefore).bootDelay(Duration.ZERO).stopDelay(Duration.ZERO)
                .flexibleNextLinkEncoded(false).retryAfterSeconds(0).operationDuration(Duration.ZERO);
        arm.faults().clear();
    }
}
