package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** A scale set's tags as a map, written back into its model, so the tag API and PATCH see the same tags. */
final class ScaleSetTags extends AbstractMap<String, String> {
    private final ScaleSet scaleSet;

    ScaleSetTags(ScaleSet scaleSet) {
        this.scaleSet = scaleSet;
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return read().entrySet();
    }

    @Override
    public String put(String key, String value) {
        Map<String, String> tags = read();
        String old = tags.put(key, value);
        write(tags);
        return old;
    }

    @Override
    public String remove(Object key) {
        Map<String, String> tags = read();
        String old = tags.remove(key);
        write(tags);
        return old;
    }

    @Override
    public void clear() {
        write(new LinkedHashMap<>());
    }

    private Map<String, String> read() {
        Map<String, String> tags = new LinkedHashMap<>();
        scaleSet.model().path("tags").fields().forEachRemaining(e -> tags.put(e.getKey(), e.getValue().asText()));
        return tags;
    }

    private void write(Map<String, String> tags) {
        ObjectNode model = scaleSet.model();
        model.set("tags", Json.tags(tags));
        scaleSet.replaceModel(model);
    }
}
