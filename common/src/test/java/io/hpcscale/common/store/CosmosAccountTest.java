package io.hpcscale.common.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.credential.AzureKeyCredential;
import com.azure.cosmos.implementation.BaseAuthorizationTokenProvider;
import com.azure.cosmos.implementation.RequestVerb;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.common.testing.CosmosTestServer;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CosmosAccountTest {
    private static final String DATE = "Thu, 26 Nov 2026 19:00:00 GMT";

    /** The SDK signs its own requests; its signer (internal, so only a test uses it) is the reference. */
    @Test
    void theKeySignatureIsTheOneTheSdkMakesForTheSameRequest() {
        BaseAuthorizationTokenProvider sdk = new BaseAuthorizationTokenProvider(
                new AzureKeyCredential(CosmosTestServer.KEY));
        for (List<String> request : List.of(List.of("", ""), List.of("dbs", "dbs/ToDoList"))) {
            // The SDK leaves a '+' of the signature as it is in its otherwise URL-encoded header.
            String header = URLDecoder.decode(sdk.generateKeyAuthorizationSignature(RequestVerb.GET, request.get(1),
                    request.get(0), Map.of("x-ms-date", DATE)).replace("+", "%2B"), StandardCharsets.UTF_8);
            assertEquals(header.substring(header.indexOf("sig=") + 4), CosmosAccount.signature(CosmosTestServer.KEY,
                    "GET", request.get(0), request.get(1), DATE), request.toString());
        }
    }

    @Test
    void readsTheSettingsAsTheRestApiReportsThem() throws Exception {
        CosmosAccount account = CosmosAccount.parse(new ObjectMapper().readTree("{\"writableLocations\":[{\"name\":"
                + "\"West Europe\"},{\"name\":\"North Europe\"}],\"enableMultipleWriteLocations\":true,"
                + "\"userConsistencyPolicy\":{\"defaultConsistencyLevel\":\"ConsistentPrefix\"}}"));
        assertEquals(new CosmosAccount(List.of("West Europe", "North Europe"), true, "ConsistentPrefix"), account);
        assertEquals(2, account.problems(null, "acct").size());
        CosmosAccount session = new CosmosAccount(List.of("West Europe"), false, "Session");
        List<String> weakened = session.problems("Eventual", "acct");
        assertEquals(1, weakened.size(), "a client that reads weaker than its Session account");
        assertTrue(weakened.get(0).startsWith("store.cosmos.consistency = Eventual"), weakened.get(0));
        assertThrows(StoreException.class, () -> CosmosAccount.parse(new ObjectMapper().readTree("{}")));
    }

    @Test
    void oneWriteRegionOfSeveralIsNoProblem() {
        CosmosAccount account = new CosmosAccount(List.of("West Europe", "North Europe"), false, "Session");
        assertEquals(List.of(), account.problems(null, "acct"));
    }
}
