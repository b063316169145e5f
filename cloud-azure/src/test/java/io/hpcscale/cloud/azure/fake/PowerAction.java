package io.hpcscale.cloud.azure.fake;

/** What a start, deallocate (hibernating or not), power-off or delete request asks of its instances. */
enum PowerAction {
    START("start"),
    DEALLOCATE("deallocate"),
    /** A Flexible VM's deallocate with {@code hibernate=true}. */
    HIBERNATE("hibernateAndDeallocate"),
    POWER_OFF("powerOff"),
    DELETE("delete");

    private final String operationName;

    PowerAction(String operationName) {
        this.operationName = operationName;
    }

    String operationName() {
        return operationName;
    }
}
