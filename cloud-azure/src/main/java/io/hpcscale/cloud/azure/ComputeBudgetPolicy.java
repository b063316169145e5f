package io.hpcscale.cloud.azure;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import reactor.core.publisher.Mono;

/** Reads Compute's {@code x-ms-ratelimit-remaining-resource} from every reply into the subscription's budget. */
final class ComputeBudgetPolicy implements HttpPipelinePolicy {
    static final String HEADER = "x-ms-ratelimit-remaining-resource";

    private final ComputeBudget budget;

    ComputeBudgetPolicy(ComputeBudget budget) {
        this.budget = budget;
    }

    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
        return next.process().doOnNext(response -> budget.observe(response.getHeaderValue(HEADER)));
    }

    @Override
    public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
        HttpResponse response = next.processSync();
        budget.observe(response.getHeaderValue(HEADER));
        return response;
    }
}
