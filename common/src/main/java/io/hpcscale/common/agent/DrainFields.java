package io.hpcscale.common.agent;

import io.hpcscale.common.logging.LogFields;
import io.hpcscale.common.model.DrainDocument;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The fields of the agent's drain lines in the json log format: the same action names whether the node was taken
 * offline, could not be, or is left alone, so that a shipper can follow one node through the handshake.
 */
final class DrainFields {
    static final String TAKE_OFFLINE = "offline";
    static final String BRING_BACK = "online";
    static final String BRING_BACK_REASON = "hpcscale no longer drains it";

    private DrainFields() {
    }

    static LoggingEventBuilder takeOffline(LoggingEventBuilder line, DrainDocument drain) {
        return line.addKeyValue(LogFields.POOL, drain.poolName()).addKeyValue(LogFields.NODE, drain.name())
                .addKeyValue(LogFields.ACTION, TAKE_OFFLINE).addKeyValue(LogFields.REASON, drain.reason());
    }

    /** @param pool the node's pool, or null when it is not known */
    static LoggingEventBuilder bringBack(LoggingEventBuilder line, String pool, String node) {
        return line.addKeyValue(LogFields.POOL, pool).addKeyValue(LogFields.NODE, node)
                .addKeyValue(LogFields.ACTION, BRING_BACK).addKeyValue(LogFields.REASON, BRING_BACK_REASON);
    }
}
