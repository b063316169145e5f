package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/**
 * ARM templates as an administrator writes them for a pool's scale sets: the scale set of a {@link ScaleSetSpec}
 * with its boot data (custom data that runs cloud-init, an extension with protected settings), named and sized by
 * the parameters {@code name} and {@code capacity}.
 */
public final class ScaleSetTemplates {
    /** The cloud-init every template here boots with: what a node needs to join the scheduler. */
    public static final String CLOUD_INIT = "#cloud-config\nruncmd:\n  - [ systemctl, start, slurmd ]\n";

    private ScaleSetTemplates() {
    }

    /** The template's JSON. */
    public static ObjectNode template(ScaleSetSpec spec) {
        ObjectNode resource = spec.toModel("[resourceGroup().location]");
        resource.put("type", "Microsoft.Compute/virtualMachineScaleSets");
        resource.put("apiVersion", "2024-07-01");
        resource.put("name", "[parameters('name')]");
        ((ObjectNode) resource.get("sku")).put("capacity", "[parameters('capacity')]");
        ObjectNode profile = resource.withObjectProperty("properties").withObjectProperty("virtualMachineProfile");
        profile.withObjectProperty("osProfile").put("computerNamePrefix", "[parameters('name')]")
            .put("customData", "[parameters('customData')]");
        profile.withObjectProperty("extensionProfile").putArray("extensions").addObject()
            .put("name", "join-cluster").putObject("properties")
            .put("publisher", "Microsoft.Azure.Extensions").put("type", "CustomScript")
            .put("typeHandlerVersion", "2.1")
            .putObject("protectedSettings").put("commandToExecute", "/opt/cluster/join.sh --token s3cret");
        ObjectNode template = Json.object();
        template.put("$schema",
            "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#");
        template.put("contentVersion", "1.0.0.0");
        ObjectNode parameters = template.putObject("parameters");
        parameters.putObject("name").put("type", "string");
        parameters.putObject("capacity").put("type", "int");
        parameters.putObject("customData").put("type", "securestring").put("defaultValue",
            Base64.getEncoder().encodeToString(CLOUD_INIT.getBytes(StandardCharsets.UTF_8)));
        template.putArray("resources").add(resource);
        return template;
    }

    /** Writes {@link #template} to {@code file} and returns it. */
    public static Path write(ScaleSetSpec spec, Path file) {
        try {
            Files.writeString(file, Json.write(template(spec)));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The custom data a scale set of the fake keeps, decoded; null when it has none. */
    public static String customData(ScaleSet scaleSet) {
        String encoded = scaleSet.model().path("properties").path("virtualMachineProfile").path("osProfile")
            .path("customData").asText(null);
        return encoded == null ? null : new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    }
}
