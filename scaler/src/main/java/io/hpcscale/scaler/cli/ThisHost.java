package io.hpcscale.scaler.cli;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** This host's name, for who an administrator's command says did something ("set-capacity on manager1"). */
final class ThisHost {
    private ThisHost() {
    }

    static String name() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "an unnamed host";
        }
    }
}
