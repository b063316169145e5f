/**
 * A fake Azure Resource Manager for testing the VMSS provider end to end through the real management SDK.
 *
 * <p>Why: mocking the SDK's Java types tests nothing of what breaks in production (paging, long-running-operation
 * polling, retries, error mapping, Uniform versus Flexible requests). The fake answers the HTTP requests the SDK
 * really sends, so the provider runs unchanged against it.
 *
 * <p>How: {@link io.hpcscale.cloud.azure.fake.FakeArm#start()} serves HTTPS on 127.0.0.1 with a
 * certificate made at test time ({@link io.hpcscale.common.testing.TestCertificate}); a test arranges
 * resource groups and scale sets ({@link io.hpcscale.cloud.azure.fake.ScaleSetSpec}), arms
 * {@link io.hpcscale.cloud.azure.fake.Fault}s, drives the provider, then asserts on the state and on the
 * {@link io.hpcscale.cloud.azure.fake.RequestLog}. The provider tests build the clients exactly as the scaler
 * does ({@code AzureClients}), with the JVM trusting the test certificate. The fake
 * itself uses only the JDK and Jackson.
 */
package io.hpcscale.cloud.azure.fake;
