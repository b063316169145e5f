package io.hpcscale.cloud.azure.fake;

/**
 * The operation URLs: the status URL the SDK polls ({@code Azure-AsyncOperation}) and the result URL
 * ({@code Location}, {@code monitor=true}) it reads once the status says Succeeded.
 */
final class OperationHandlers {
    private final Operations operations;

    OperationHandlers(Operations operations) {
        this.operations = operations;
    }

    ArmResponse status(ArmRequest request) {
        Operation operation = operations.get(request.param("op"));
        if (operation == null) {
            throw new ArmException(404, "NotFound", "The operation '" + request.param("op") + "' was not found.");
        }
        if ("true".equalsIgnoreCase(request.query("monitor"))) {
            return result(request, operation);
        }
        ArmResponse response = ArmResponse.ok(operation.toJson(operations.now()));
        return operation.isDone(operations.now()) ? response : operations.retryAfter(response);
    }

    private ArmResponse result(ArmRequest request, Operation operation) {
        if (!operation.isDone(operations.now())) {
            return operations.retryAfter(ArmResponse.empty(202)
                .header("Location", operations.resultUrl(request, operation)));
        }
        if ("Succeeded".equals(operation.finalStatus())) {
            return ArmResponse.empty(200);
        }
        return ArmResponse.json(200, operation.toJson(operations.now()));
    }
}
