package io.hpcscale.cloud.azure.fake;

/** What a request was for, so tests can count ARM calls per provider cycle without matching URLs. */
public enum RequestKind {
    TOKEN("token"),
    LIST("list"),
    LIST_SCALE_SETS("list-scale-sets"),
    GET("get"),
    GET_INSTANCE("get-instance"),
    START("start"),
    DEALLOCATE("deallocate"),
    POWEROFF("poweroff"),
    DELETE("delete"),
    PATCH_CAPACITY("patch-capacity"),
    PATCH("patch"),
    PUT("put"),
    DELETE_SCALE_SET("delete-scale-set"),
    TAGS_READ("tags-read"),
    TAGS_MERGE("tags-merge"),
    SKUS("skus"),
    PERMISSIONS("permissions"),
    DEPLOY("deploy"),
    VALIDATE("validate"),
    REGISTER("register"),
    OPERATION_POLL("operation-poll"),
    OPERATION_RESULT("operation-result"),
    UNKNOWN("unknown");

    private final String label;

    RequestKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Calls that change something in Azure: what ARM's write throttling counts. */
    public boolean isWrite() {
        return switch (this) {
            case START, DEALLOCATE, POWEROFF, DELETE, PATCH_CAPACITY, PATCH, PUT, DELETE_SCALE_SET, TAGS_MERGE,
                DEPLOY, REGISTER -> true;
            default -> false;
        };
    }
}
