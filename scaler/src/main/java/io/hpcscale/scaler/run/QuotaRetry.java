package io.hpcscale.scaler.run;

import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.QuotaException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * After the cloud refused a start of several instances for quota, how many of them to try once more: as many as the
 * quota has room for when the cloud says how many that is (once), else half as many, until one fits or one is
 * refused too. A pure function of the refusals, so that the rule is read and tested apart from the calls.
 *
 * @param count    how many of the refused instances to try again, the first ones in plan order
 * @param whatFits whether the count is what the cloud said fits (tried once), rather than a halving
 */
record QuotaRetry(int count, boolean whatFits) {

    /**
     * @param refusals      why each refused start failed, in plan order
     * @param triedWhatFits whether the attempt just refused was already the count the cloud said fits
     * @return the next, smaller attempt; empty when there is none (not all quota, or nothing smaller to try)
     */
    static Optional<QuotaRetry> after(List<CloudException> refusals, boolean triedWhatFits) {
        boolean allQuota = !refusals.isEmpty() && refusals.stream().allMatch(QuotaException.class::isInstance);
        if (!allQuota || triedWhatFits) {
            return Optional.empty();
        }
        OptionalInt room = refusals.stream().map(e -> ((QuotaException) e).instancesThatFit())
                .filter(OptionalInt::isPresent).mapToInt(OptionalInt::getAsInt).min();
        int fit = room.isPresent() ? (room.getAsInt() < refusals.size() ? room.getAsInt() : 0)
                : refusals.size() / 2;
        return fit > 0 ? Optional.of(new QuotaRetry(fit, room.isPresent())) : Optional.empty();
    }
}
