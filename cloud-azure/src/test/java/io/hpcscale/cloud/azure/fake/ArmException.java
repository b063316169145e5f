package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** An ARM error reply, thrown by handlers and turned into {@code {"error":{...}}} by the server. */
public final class ArmException extends RuntimeException {
    private final int status;
    private final String code;
    private final String target;

    public ArmException(int status, String code, String message) {
        this(status, code, message, null);
    }

    public ArmException(int status, String code, String message, String target) {
        super(message);
        this.status = status;
        this.code = code;
        this.target = target;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public ObjectNode body() {
        return errorBody(code, getMessage(), target);
    }

    static ObjectNode errorBody(String code, String message, String target) {
        ObjectNode error = Json.object().put("code", code).put("message", message);
        if (target != null) {
            error.put("target", target);
        }
        ObjectNode body = Json.object();
        body.set("error", error);
        return body;
    }

    static ArmException badRequest(String code, String message, String target) {
        return new ArmException(400, code, message, target);
    }

    static ArmException resourceNotFound(String type, String name, String resourceGroup) {
        return new ArmException(404, "ResourceNotFound", "The Resource '" + type + "/" + name
            + "' under resource group '" + resourceGroup + "' was not found. For more details please go to"
            + " https://aka.ms/ARMResourceNotFoundFix");
    }

    static ArmException resourceGroupNotFound(String resourceGroup) {
        return new ArmException(404, "ResourceGroupNotFound",
            "Resource group '" + resourceGroup + "' could not be found.");
    }

    static ArmException notANumber() {
        return badRequest("InvalidParameter", "Virtual Machine Scale Set VM instanceId must be a number.",
            "instanceId");
    }
}
