package io.hpcscale.scaler.removal;

/**
 * One message as received: a request to carry out, or a poison message to set aside. Delivery is at least once:
 * the same request may come again (a duplicate send, or a message not deleted before its visibility timeout), so
 * whoever carries it out must do so once per VM.
 */
public sealed interface RemovalMessage permits RemovalMessage.Request, RemovalMessage.Poison {

    Delivery delivery();

    /** The message's text as received. */
    String body();

    /** A readable request; delete the message once it has been carried out (or found already done). */
    record Request(Delivery delivery, String body, RemovalRequest request) implements RemovalMessage {
    }

    /**
     * A message that will never be carried out: unreadable, or received more than {@code maxTries} times without
     * being deleted. Set it aside with its reason.
     */
    record Poison(Delivery delivery, String body, String reason) implements RemovalMessage {
    }

    /**
     * What a received message is. A message handed out more than {@code maxTries} times is poison even if it reads
     * well: carrying it out has failed that often, and trying forever would hide the failure.
     */
    static RemovalMessage of(Delivery delivery, String body, int maxTries, RemovalMessageCodec codec) {
        RemovalRequest request;
        try {
            request = codec.decode(body);
        } catch (MalformedMessageException e) {
            return new Poison(delivery, body, "the message cannot be read: " + e.getMessage());
        }
        if (delivery.dequeueCount() > maxTries) {
            return new Poison(delivery, body, "the removal of " + request.vmName() + " (" + request.vm().id()
                    + ") was received " + delivery.dequeueCount() + " times without being carried out, more than "
                    + "maxTries (" + maxTries + ")");
        }
        return new Request(delivery, body, request);
    }
}
