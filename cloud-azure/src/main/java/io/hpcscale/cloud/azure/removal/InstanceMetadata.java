package io.hpcscale.cloud.azure.removal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import io.hpcscale.scaler.removal.VmResourceId;

/**
 * Reads which VM this is from the Azure Instance Metadata Service: {@code GET /metadata/instance} with the header
 * {@code Metadata: true}, on the link-local address only a VM can reach. Never through a proxy, as Azure requires;
 * with a short timeout, since off Azure nothing answers at all.
 */
public final class InstanceMetadata {
    public static final URI AZURE = URI.create("http://169.254.169.254");
    static final String PATH = "/metadata/instance?api-version=2021-02-01";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI endpoint;
    private final Duration timeout;
    private final HttpClient http;

    /** @param endpoint the service's base URL: {@link #AZURE}, or an imitation's in tests */
    public InstanceMetadata(URI endpoint, Duration timeout) {
        this.endpoint = endpoint;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).connectTimeout(timeout).build();
    }

    /**
     * This VM as the metadata service describes it.
     *
     * @param name the VM's name ({@code compute.name}), as Scheduled Events name it in their {@code Resources}
     */
    public record VmIdentity(VmResourceId vm, String scaleSet, String computerName, String name) {
    }

    /** @throws InstanceMetadataException saying what was asked, what came back and what it means */
    public VmIdentity read() throws InstanceMetadataException, InterruptedException {
        URI uri = URI.create(endpoint.toString().replaceAll("/+$", "") + PATH);
        String where = "the instance metadata service at " + endpoint;
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(uri).header("Metadata", "true").timeout(timeout).GET()
                    .build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpConnectTimeoutException e) {
            throw offAzure(where, "no answer within " + timeout.toSeconds() + "s");
        } catch (HttpTimeoutException e) {
            throw new InstanceMetadataException(where + " took more than " + timeout.toSeconds() + "s to answer; "
                    + "try again");
        } catch (IOException e) {
            throw offAzure(where, e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
        if (response.statusCode() != 200) {
            throw new InstanceMetadataException(where + " answered HTTP " + response.statusCode()
                    + " to GET " + PATH + "; try again in a little while");
        }
        return identity(response.body(), where);
    }

    private static InstanceMetadataException offAzure(String where, String what) {
        return new InstanceMetadataException("cannot read this VM's identity from " + where + " (" + what + "): "
                + "hpcscale-delete-me runs on an Azure VM of a scale set");
    }

    private static VmIdentity identity(String body, String where) throws InstanceMetadataException {
        JsonNode compute;
        try {
            compute = JSON.readTree(body).path("compute");
        } catch (JsonProcessingException e) {
            throw new InstanceMetadataException(where + " answered something that is not JSON");
        }
        String resourceId = compute.path("resourceId").asText("");
        if (resourceId.isEmpty()) {
            throw new InstanceMetadataException(where + " gave no compute.resourceId: it is not Azure's instance "
                    + "metadata service, or too old for api-version 2021-02-01");
        }
        String scaleSet = compute.path("vmScaleSetName").asText("");
        if (scaleSet.isEmpty()) {
            throw new InstanceMetadataException("this VM (" + resourceId + ") is in no scale set "
                    + "(compute.vmScaleSetName is empty): hpcscale removes only VMs of scale sets");
        }
        try {
            return new VmIdentity(VmResourceId.parse(resourceId), scaleSet,
                    compute.path("osProfile").path("computerName").asText(null), compute.path("name").asText(null));
        } catch (IllegalArgumentException e) {
            throw new InstanceMetadataException(where + " gave compute.resourceId " + e.getMessage());
        }
    }

    /** The metadata service could not say which VM this is. */
    public static final class InstanceMetadataException extends Exception {
        InstanceMetadataException(String message) {
            super(message);
        }
    }
}
