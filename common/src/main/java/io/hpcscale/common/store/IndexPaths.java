package io.hpcscale.common.store;

import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingMode;
import com.azure.cosmos.models.IndexingPolicy;
import java.util.List;
import java.util.Set;

/**
 * The properties hpcscale's queries filter on, and only those, are indexed in its Cosmos DB container. The default
 * policy indexes every property of every document, and each indexed value adds to the cost of every write: a job
 * document has a few dozen values, a scaler state's maps one per instance. {@code id} and {@code _ts} are always
 * indexed by Cosmos DB itself.
 */
final class IndexPaths {
    /** {@code Type} for every query by kind, {@code At} for the events newer than a time. */
    static final List<String> INDEXED = List.of("/Type/?", "/At/?");
    static final String POLICY_JSON = "{\"indexingMode\":\"consistent\",\"automatic\":true,\"includedPaths\":"
            + "[{\"path\":\"/Type/?\"},{\"path\":\"/At/?\"}],\"excludedPaths\":[{\"path\":\"/*\"}]}";

    private IndexPaths() {
    }

    static IndexingPolicy policy() {
        IndexingPolicy policy = new IndexingPolicy();
        policy.setIndexingMode(IndexingMode.CONSISTENT);
        policy.setAutomatic(true);
        policy.setIncludedPaths(INDEXED.stream().map(IncludedPath::new).toList());
        policy.setExcludedPaths(List.of(new ExcludedPath("/*")));
        return policy;
    }

    /**
     * What an existing policy indexes beyond what hpcscale needs ("every property"), or null when it indexes no more.
     * A policy that lacks a path hpcscale filters on still answers (a query then scans the pool's partition) and is
     * not refused.
     */
    static String unneeded(IndexingPolicy policy) {
        if (policy == null || policy.getIndexingMode() == IndexingMode.NONE) {
            return null;
        }
        Set<String> excluded = Set.copyOf(policy.getExcludedPaths().stream().map(ExcludedPath::getPath).toList());
        List<String> extra = policy.getIncludedPaths().stream().map(IncludedPath::getPath)
                .filter(path -> !INDEXED.contains(path)).toList();
        if (extra.contains("/*") && !excluded.contains("/*")) {
            return "every property";
        }
        List<String> named = extra.stream().filter(path -> !path.equals("/*")).toList();
        return named.isEmpty() ? null : String.join(", ", named);
    }
}
