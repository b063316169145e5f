package io.hpcscale.scaler.pool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The price list file ({@code scaler.priceList}) as it is now: read again whenever its modification time changes,
 * so a refresh ({@code hpcscale-scaler prices}) takes effect at the next cycle without a restart. A file that cannot
 * be read keeps the prices last read and is said once per change.
 */
public final class PriceFile implements Supplier<PriceList> {
    private static final Logger log = LoggerFactory.getLogger(PriceFile.class);

    private final Path file;
    private FileTime readAt;
    private PriceList prices = PriceList.NONE;

    public PriceFile(Path file) {
        this.file = file;
    }

    /** No price list configured: pools have only the prices their settings give. */
    public static Supplier<PriceList> none() {
        return () -> PriceList.NONE;
    }

    @Override
    public synchronized PriceList get() {
        FileTime modified;
        try {
            modified = Files.getLastModifiedTime(file);
        } catch (IOException e) {
            modified = FileTime.fromMillis(0);
        }
        if (modified.equals(readAt)) {
            return prices;
        }
        readAt = modified;
        try {
            prices = PriceList.read(file);
            log.info("price list {}: {} VM prices per hour", file, prices.size());
        } catch (IOException e) {
            log.warn("scaler.priceList: {}; {}", e.getMessage(), prices.size() == 0 ? "pools without pricePerHour "
                    + "have no price" : "the prices read before are kept");
        }
        return prices;
    }
}
