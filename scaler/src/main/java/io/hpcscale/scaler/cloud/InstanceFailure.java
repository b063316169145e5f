package io.hpcscale.scaler.cloud;

/**
 * Why the cloud says an instance's provisioning failed, as its listing shows it.
 *
 * @param code     the cloud's code ({@code AllocationFailed}, {@code OSProvisioningTimedOut})
 * @param capacity the cloud has no room for the instance now: a reason to back off, not a broken image
 */
public record InstanceFailure(String code, String message, boolean capacity) {
    @Override
    public String toString() {
        return message == null || message.isBlank() ? code : code + ": " + message;
    }
}
