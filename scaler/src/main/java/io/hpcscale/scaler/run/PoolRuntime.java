package io.hpcscale.scaler.run;

import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.match.NodeProperties;
import io.hpcscale.scaler.pool.PriceFile;
import io.hpcscale.scaler.pool.PriceList;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.plan.TargetReading;
import io.hpcscale.scaler.pool.VmShape;
import io.hpcscale.scaler.fixed.TargetSource;
import io.hpcscale.scaler.fixed.TargetUnavailableException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pool as the scaler runs it: its settings and its provider. What it remembers lives in the store; what it reads
 * once per process (a VM size left out of the settings) lives here.
 */
public final class PoolRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(PoolRuntime.class);

    private final CloudProvider provider;
    private final TargetSource target;
    private volatile PoolConfig config;
    private final Supplier<PriceList> prices;
    private Map<String, Object> nodeFacts;
    private NodeProperties node;
    private volatile boolean shapeChecked;

    public PoolRuntime(PoolConfig config, CloudProvider provider) {
        this(config, provider, null);
    }

    public PoolRuntime(PoolConfig config, CloudProvider provider, TargetSource target) {
        this(config, provider, target, PriceFile.none());
    }

    /**
     * @param target where a fixed pool's count lives; null for a pool whose queued jobs decide
     * @param prices the price list, for a pool whose settings give no {@code pricePerHour}
     */
    public PoolRuntime(PoolConfig config, CloudProvider provider, TargetSource target, Supplier<PriceList> prices) {
        if (config.fixed() && target == null) {
            throw new IllegalArgumentException("pool " + config.name() + " keeps a fixed target but has no source "
                    + "for it");
        }
        this.config = config;
        this.provider = provider;
        this.target = config.fixed() ? target : null;
        this.prices = prices;
    }

    public String name() {
        return config.name();
    }

    /** The pool's settings; its shape is null until {@link #shapeProblem()} has returned null once. */
    public PoolConfig config() {
        return config;
    }

    public CloudProvider provider() {
        return provider;
    }

    /**
     * One instance's price per hour: the pool's {@code pricePerHour}, else the price list's for its VM size, region
     * and priority as the cloud says them; null when neither knows.
     */
    public Double pricePerHour() {
        if (config.matching().pricePerHour() != null) {
            return config.matching().pricePerHour();
        }
        NodeProperties node = node();
        return prices.get().price((String) node.property("vm_size"), (String) node.property("location"),
                Boolean.TRUE.equals(node.property("spot"))).orElse(null);
    }

    /**
     * What the pool's node is and has for jobs' constraints: the settings over what the cloud says. Made again only
     * when what the cloud says or the shape changes, which is seldom: every pool's plan asks for it every cycle.
     */
    public synchronized NodeProperties node() {
        Map<String, Object> facts = provider.nodeFacts();
        if (node == null || !facts.equals(nodeFacts)) {
            nodeFacts = facts;
            node = config.matching().node(name(), config.shape(), facts);
        }
        return node;
    }

    private synchronized void forgetNode() {
        node = null;
    }

    /** Where the pool's fixed count lives; empty for a pool whose queued jobs decide. */
    public Optional<TargetSource> target() {
        return Optional.ofNullable(target);
    }

    /** A fixed pool's target as it reads now; null for a pool whose queued jobs decide. */
    public TargetReading readTarget() throws InterruptedException {
        if (target == null) {
            return null;
        }
        try {
            OptionalInt count = target.read();
            return count.isPresent() ? TargetReading.of(count.getAsInt(), target.describe())
                    : TargetReading.unknown(target.describe(), target.describe() + " is not set: set it with "
                            + "hpcscale-scaler set-capacity " + name() + " <n>");
        } catch (TargetUnavailableException e) {
            return TargetReading.unknown(target.describe(), e.getMessage());
        }
    }

    /**
     * Reads the VM shape from the provider if the settings leave part of it out and it has not been read yet.
     *
     * @return null once the shape is known, else why the pool cannot be planned this cycle
     */
    public String shapeProblem() throws InterruptedException {
        if (config.shapeKnown()) {
            return null;
        }
        try {
            Optional<VmShape> shape = provider.vmShape();
            if (shape.isEmpty()) {
                return "its VM shape is not configured and " + provider.describe() + " cannot read it: set pool."
                        + name() + ".cpus and .memoryMb";
            }
            config = config.withShapeFromProvider(shape.get());
            forgetNode();
            LOG.info("pool {}: one instance offers {} CPUs, {} MiB and {} GPUs (from the VM size, settings "
                    + "applied over it)", name(), config.shape().cpus(), config.shape().memoryMb(),
                    config.shape().gpus());
            return null;
        } catch (CloudException e) {
            return "its VM shape cannot be read from the VM size (" + e.getMessage() + "); set pool." + name()
                    + ".cpus and .memoryMb to plan without it";
        }
    }

    /**
     * Warns, once per process, when the scheduler reports the pool's nodes with fewer CPUs or less memory than the
     * shape the scaler plans new nodes with: jobs it thinks fit a new node would then never start on one.
     */
    public void warnOnceIfNodesDiffer(List<VmDocument> vms) {
        if (shapeChecked || !config.shapeKnown()) {
            return;
        }
        VmShape shape = config.shape();
        for (VmDocument vm : vms) {
            boolean fewerCpus = vm.cpusTotal() > 0 && vm.cpusTotal() < shape.cpus();
            boolean lessMemory = vm.memoryMb() > 0 && vm.memoryMb() < shape.memoryMb();
            boolean fewerGpus = vm.gpus() > 0 && vm.gpus() < shape.gpus();
            if (fewerCpus || lessMemory || fewerGpus) {
                LOG.warn("pool {}: the scheduler reports node {} with {} CPUs, {} MiB and {} GPUs, less than the {} "
                        + "CPUs, {} MiB and {} GPUs new nodes are planned with; a job sized between the two would "
                        + "start nodes it cannot run on. Set pool.{}.cpus, .memoryMb and .gpus to what the "
                        + "scheduler reports", name(), vm.name(), vm.cpusTotal(), vm.memoryMb(), vm.gpus(),
                        shape.cpus(), shape.memoryMb(), shape.gpus(), name());
                shapeChecked = true;
                return;
            }
        }
        shapeChecked = !vms.isEmpty();
    }
}
