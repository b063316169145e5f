package io.hpcscale.common.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RedactorTest {
    private static final String ACCOUNT_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/"
            + "KBHBeksoGMGw==";

    @Test
    void hidesTheValueOfPasswordLookingOptionsInACommandLine() {
        assertEquals(List.of("ipmitool", "-H", "bmc1", "--password", Redactor.MARK, "--api-token=" + Redactor.MARK,
                "power", "on"), Redactor.argv(List.of("ipmitool", "-H", "bmc1", "--password", "hunter2",
                "--api-token=abc.def", "power", "on")));
    }

    @Test
    void hidesOptionsTheAdministratorMarksSecretSpeltExactly() {
        Redactor.markSecretOptions(Set.of("-P"));
        assertEquals(List.of("ipmitool", "-U", "admin", "-P", Redactor.MARK),
                Redactor.argv(List.of("ipmitool", "-U", "admin", "-P", "hunter2")));
        assertFalse(Redactor.text("ipmitool -U admin -P hunter2 failed").contains("hunter2"));
        assertEquals(List.of("squeue", "-p", "gpu"), Redactor.argv(List.of("squeue", "-p", "gpu")), "-p is not -P");
    }

    @Test
    void hidesASecretOptionsValueInTextWhetherAfterABlankOrAnEqualsSign() {
        String shown = Redactor.text("`sh -c 'power --password hunter2 --api-token=abc123 on vm1'` exited with "
                + "status 1");
        assertFalse(shown.contains("hunter2") || shown.contains("abc123"), shown);
        assertTrue(shown.contains("--password [redacted]") && shown.contains("on vm1"), shown);
    }

    @Test
    void keepsTheArgumentAfterOptionsThatOnlyContainASecretWord() {
        List<String> argv = List.of("az", "vmss", "update", "--signal", "TERM", "--keyvault", "kv1",
                "--disable-password-authentication", "--name", "vmss1", "--generate-ssh-keys", "--key-file", "k.pem");
        assertEquals(argv, Redactor.argv(argv));
        String text = "host key: verification failed for node1; token: expired";
        assertEquals(text, Redactor.text(text));
    }

    @Test
    void hidesConnectionStringsSasKeysTokensAndJwtsInText() {
        String text = "DefaultEndpointsProtocol=https;AccountName=st1;AccountKey=" + ACCOUNT_KEY
                + ";EndpointSuffix=core.windows.net and https://st1.queue.core.windows.net/q?sv=2022&sig=abc%2Bdef"
                + " with Authorization: Bearer abcdefghijklmnop, eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkw.sflK"
                + " client_secret: 's3cr3t value' password=hunter2 " + ACCOUNT_KEY;
        String shown = Redactor.text(text);
        for (String secret : List.of(ACCOUNT_KEY, "abc%2Bdef", "abcdefghijklmnop", "eyJhbGciOiJIUzI1NiJ9",
                "s3cr3t", "hunter2")) {
            assertFalse(shown.contains(secret), secret + " in: " + shown);
        }
        assertTrue(shown.contains("AccountName=st1") && shown.contains("EndpointSuffix=core.windows.net"), shown);
    }

    @Test
    void leavesOrdinaryTextAlone() {
        String text = "pool=hb120 instance=vm1 action=stop outcome=ok reason=drained: offline and running no job "
                + "since 10:00; `power-on vm1` exited with status 1: no capacity";
        assertEquals(text, Redactor.text(text));
        assertEquals(List.of("qstat", "-f", "-t", "-F", "json"), Redactor.argv(List.of("qstat", "-f", "-t", "-F",
                "json")));
    }
}
