package io.hpcscale.cloud.azure;

import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an instance's scheduler node is named ({@code pool.<name>.azure.nodeName}): its OS computer name (the
 * default), its VM name, one of its tags, or a template over those. The planner matches the result with the
 * scheduler's node names without case or domain.
 */
public sealed interface NodeNaming {
    Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z]+)}");

    /** The node name of a VM; an instance without what the naming needs is named after its computer name. */
    String nodeName(AzureVm vm);

    /** @throws IllegalArgumentException saying what is wrong with the setting */
    static NodeNaming parse(String setting) {
        String value = setting.strip();
        if (value.equals("computerName")) {
            return new Template("{computerName}");
        }
        if (value.equals("vmName")) {
            return new Template("{vmName}");
        }
        if (value.startsWith("tag:")) {
            String tag = value.substring(4).strip();
            if (tag.isEmpty()) {
                throw new IllegalArgumentException("tag: needs a tag name, e.g. tag:slurm-node");
            }
            return new Tag(tag);
        }
        Matcher m = PLACEHOLDER.matcher(value);
        boolean any = false;
        while (m.find()) {
            any = true;
            if (!Template.FIELDS.contains(m.group(1))) {
                throw new IllegalArgumentException("{" + m.group(1) + "} is not one of {computerName}, {vmName}, "
                        + "{instanceId}");
            }
        }
        if (!any) {
            throw new IllegalArgumentException("expected computerName, vmName, tag:<tag name>, or a template using "
                    + "{computerName}, {vmName} or {instanceId}");
        }
        return new Template(value);
    }

    /** A text with {@code {computerName}}, {@code {vmName}} and {@code {instanceId}} replaced. */
    record Template(String text) implements NodeNaming {
        static final Set<String> FIELDS = Set.of("computerName", "vmName", "instanceId");

        @Override
        public String nodeName(AzureVm vm) {
            Map<String, String> values = Map.of("computerName", nonNull(vm.computerName(), vm.vmName()),
                    "vmName", vm.vmName(), "instanceId", vm.instanceId());
            Matcher m = PLACEHOLDER.matcher(text);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(out, Matcher.quoteReplacement(values.get(m.group(1))));
            }
            m.appendTail(out);
            return out.toString();
        }
    }

    /** The value of one of the instance's tags. */
    record Tag(String tag) implements NodeNaming {
        @Override
        public String nodeName(AzureVm vm) {
            String value = vm.tags().get(tag);
            return value != null && !value.isBlank() ? value : nonNull(vm.computerName(), vm.vmName());
        }
    }

    private static String nonNull(String value, String otherwise) {
        return value != null ? value : otherwise;
    }
}
