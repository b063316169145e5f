package io.hpcscale.cloud.azure;

import java.time.Clock;
import java.time.Duration;

/**
 * The time the Azure provider keeps: when a listing was made, how long to wait before the next poll. Real time in
 * the scaler; a test against the local Resource Manager gives the imitation's clock and a pause that moves it, so
 * that half an hour of 15-second polls and one-minute listings runs in seconds.
 */
public interface ArmPace {
    ArmPace REAL = new ArmPace() {
        @Override
        public Clock clock() {
            return Clock.systemUTC();
        }

        @Override
        public void sleep(Duration duration) throws InterruptedException {
            Thread.sleep(duration.toMillis());
        }
    };

    Clock clock();

    void sleep(Duration duration) throws InterruptedException;
}
