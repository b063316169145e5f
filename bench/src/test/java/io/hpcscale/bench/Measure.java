package io.hpcscale.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/** Timing with warm-up, medians, heap in use, and the machine the figures come from. */
final class Measure {
    private Measure() {
    }

    /** A step to time. */
    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    /** Median, fastest and slowest of {@code runs} timed runs, after {@code warmups} untimed ones. */
    record Timing(double medianMs, double minMs, double maxMs, int runs) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "median %.1f ms (min %.1f, max %.1f, %d runs)", medianMs, minMs, maxMs,
                    runs);
        }
    }

    static Timing time(int warmups, int runs, Step step) throws Exception {
        for (int i = 0; i < warmups; i++) {
            step.run();
        }
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            long begin = System.nanoTime();
            step.run();
            millis.add((System.nanoTime() - begin) / 1e6);
        }
        Collections.sort(millis);
        return new Timing(millis.get(millis.size() / 2), millis.get(0), millis.get(millis.size() - 1), runs);
    }

    /** Heap in use before each collection, as the collector reports it, from {@link #watchHeap()} until closed. */
    static final class HeapWatch implements AutoCloseable {
        private final List<Runnable> removals = new ArrayList<>();
        private long mostBefore;

        private HeapWatch() {
            for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
                NotificationEmitter emitter = (NotificationEmitter) collector;
                NotificationListener listener = (notification, handback) -> record(notification);
                emitter.addNotificationListener(listener, null, null);
                removals.add(() -> {
                    try {
                        emitter.removeNotificationListener(listener);
                    } catch (ListenerNotFoundException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
        }

        private synchronized void record(Notification notification) {
            if (!notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                return;
            }
            GcInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData())
                    .getGcInfo();
            mostBefore = Math.max(mostBefore, used(info.getMemoryUsageBeforeGc()));
        }

        private static long used(Map<String, MemoryUsage> pools) {
            long bytes = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP && pools.containsKey(pool.getName())) {
                    bytes += pools.get(pool.getName()).getUsed();
                }
            }
            return bytes;
        }

        /** The most heap ever in use when a collection began: the peak, garbage included. */
        synchronized double peakMb() {
            return Math.max(mostBefore, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed())
                    / (1024.0 * 1024.0);
        }

        /**
         * The heap in use after a full collection, now: what the work keeps alive between its steps. (What is left
         * after a young collection says nothing with the serial collector, whose old generation keeps its garbage.)
         */
        double liveMb() {
            System.gc();
            return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0);
        }

        @Override
        public void close() {
            removals.forEach(Runnable::run);
        }
    }

    static HeapWatch watchHeap() {
        System.gc();
        return new HeapWatch();
    }

    static String machine() {
        String cpu = "unknown CPU";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse(cpu);
        } catch (IOException e) {
            // Not Linux: the rest of the line still says enough.
        }
        return String.format(Locale.ROOT, "%d cores (%s), %s %s, Java %s, max heap %d MB",
                Runtime.getRuntime().availableProcessors(), cpu, System.getProperty("os.name"),
                System.getProperty("os.arch"), System.getProperty("java.version"),
                Runtime.getRuntime().maxMemory() / (1024 * 1024));
    }

    static void report(String line) {
        System.out.println("BENCH " + line);
    }
}
