package io.hpcscale.cloud.azure;

import com.azure.core.management.exception.ManagementException;
import com.azure.resourcemanager.authorization.fluent.PermissionsClient;
import io.hpcscale.scaler.check.Finding;
import io.hpcscale.scaler.cloud.CallGate;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.NotFoundException;
import io.hpcscale.scaler.plan.Words;
import io.hpcscale.scaler.pool.ShapeSettings;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.pool.VmShape;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * Checks an azure pool against Azure with reads only: signing in, the scale set, its VM size, and a permissions
 * probe compared with what the pool's requests need. Nothing is started, stopped or written, so it is safe next to
 * a running scaler. One sign-in serves every pool, as in the scaler.
 */
public final class ScaleSetCheck {
    /** Longer than any credential of the chain takes to answer or give up (IMDS probes, az). */
    static final Duration SIGN_IN_BOUND = Duration.ofSeconds(30);
    private static final String ROLE = "the custom role \"hpcscale scaler\" of docs/security.md (or Virtual Machine "
            + "Contributor)";

    /**
     * @param findings     in the order they were checked
     * @param scaleSetRead whether the scale set could be read: its instances can be listed only then
     */
    public record Result(List<Finding> findings, boolean scaleSetRead) {
    }

    private final AzureClients clients;
    private final VmSizeCatalog sizes;
    private final boolean removalQueue;
    private Finding signIn;

    /** @param removalQueue nodes may ask to be removed: removals need the delete action whatever the stop action */
    public ScaleSetCheck(AzureClients clients, boolean removalQueue) {
        this.clients = clients;
        this.sizes = new VmSizeCatalog(clients);
        this.removalQueue = removalQueue;
    }

    /**
     * @param shape the pool's shape settings, applied over the VM size as the scaler applies them
     * @param stop  the pool's stop action, which decides the action the stop needs
     */
    public Result check(AzurePoolSettings pool, ShapeSettings shape, StopAction stop) throws InterruptedException {
        List<Finding> findings = new ArrayList<>();
        Finding signedIn = signIn();
        findings.add(signedIn);
        if (!signedIn.ok()) {
            return new Result(findings, false);
        }
        ScaleSetModel model;
        try {
            model = ScaleSetModel.of(clients.compute(pool.subscriptionId()).serviceClient()
                    .getVirtualMachineScaleSets().getByResourceGroup(pool.resourceGroup(), pool.scaleSet()));
        } catch (RuntimeException e) {
            findings.add(notRead(pool, e));
            return new Result(findings, false);
        }
        findings.add(Finding.ok("scale set " + pool.scaleSet() + ": " + model.mode() + ", "
                + Words.count(model.capacity(), "instance") + " of " + model.vmSize() + " in " + model.location()
                + ", " + (model.spot() ? "Spot priority with eviction policy " + model.evictionPolicy()
                        + " (Azure may take instances back; the scaler counts those as evictions)"
                        : "regular priority") + placement(model)));
        if (model.overprovision()) {
            findings.add(overprovisioning(pool));
        }
        findings.add(vmSize(pool, model, shape));
        findings.add(permissions(pool, model, stop));
        if (stop == StopAction.HIBERNATE) {
            findings.add(hibernation(pool, model));
        }
        if (pool.template() != null) {
            findings.add(template(pool));
        }
        if (pool.standbyPool() != null) {
            findings.add(standbyPool(pool, model));
        }
        return new Result(findings, true);
    }

    private static String placement(ScaleSetModel model) {
        if (model.singlePlacementGroup() == null || model.flexible()) {
            return "";
        }
        return model.singlePlacementGroup() ? ", one placement group (one InfiniBand fabric, at most 100 instances)"
                : ", several placement groups (no InfiniBand between them)";
    }

    /**
     * The scaler starts and stops named instances and grows the scale set by a capacity; a scale set that
     * overprovisions makes extra instances each time it grows and deletes them minutes later (Microsoft Learn,
     * scale set design overview), after they may have booted and joined the scheduler.
     */
    private static Finding overprovisioning(AzurePoolSettings pool) {
        return Finding.problem("scale set " + pool.scaleSet() + " overprovisions (properties.overprovision is true, "
                + "the default for Uniform scale sets): each time it grows Azure makes extra instances and deletes "
                + "them minutes later, after they may have booted and joined the scheduler. Turn it off: az vmss "
                + "update --resource-group " + pool.resourceGroup() + " --name " + pool.scaleSet()
                + " --set overprovision=false");
    }

    /**
     * Azure hibernates only the VMs of Flexible scale sets with hibernation enabled (Microsoft Learn, hibernation
     * overview); the scaler deallocates the others, so the pool runs, but every start is a boot.
     */
    private static Finding hibernation(AzurePoolSettings pool, ScaleSetModel model) {
        String setting = "pool." + pool.pool() + ".stopAction = hibernate";
        if (!model.flexible()) {
            return Finding.problem(setting + ": scale set " + pool.scaleSet() + " is Uniform, and Azure hibernates "
                    + "only Flexible scale sets' VMs: the scaler would deallocate its instances instead. Use a "
                    + "Flexible scale set, or stopAction = deallocate");
        }
        if (model.spot()) {
            return Finding.problem(setting + ": scale set " + pool.scaleSet() + " runs Spot VMs, which Azure does not "
                    + "hibernate: the scaler would deallocate them instead. Use stopAction = deallocate");
        }
        if (!model.hibernationEnabled()) {
            return Finding.problem(setting + ": scale set " + pool.scaleSet() + " does not have hibernation enabled "
                    + "(properties.additionalCapabilities.hibernationEnabled), so Azure refuses to hibernate its VMs "
                    + "and the scaler deallocates them instead. Make the scale set with hibernation enabled, of a "
                    + "size and image that support it (docs/running-on-azure.md, \"Hibernation\"), or use "
                    + "stopAction = deallocate");
        }
        return Finding.ok(setting + ": scale set " + pool.scaleSet() + " has hibernation enabled (a VM Azure will "
                + "not hibernate is deallocated instead, and the scaler says why)");
    }

    /**
     * The standby pool as Azure shows it, its VMs and health, and what the scaler's next cycle will do to it: reads
     * only.
     */
    private Finding standbyPool(AzurePoolSettings pool, ScaleSetModel model) {
        StandbyPoolKeeper keeper = new StandbyPoolKeeper(clients, pool);
        try {
            StandbyPoolKeeper.Step step = keeper.plan(model);
            if (step.state() != null) {
                return Finding.ok(step.why() + ": the scaler " + (step.found() == null ? "creates" : "sets") + " it "
                        + "at its next cycle" + (step.state() != pool.standbyPool().state() ? ", through running first"
                                : ""));
            }
            StandbyPoolResource.Health health = keeper.health();
            String said = step.why() + "; Azure: " + health.describe();
            return health.healthy() ? Finding.ok(said) : Finding.problem(said + ". Azure cannot make its VMs now (it "
                    + "pauses 30 s and tries again: check again if it stays so): often a role its Standby Pool Resource "
                    + "Provider lacks, or a quota, capacity or an extension failing (docs/running-on-azure.md, Standby "
                    + "pools)");
        } catch (CloudException e) {
            return Finding.problem(e.getMessage());
        }
    }

    /** The template new scale sets are deployed from: read and checked here, then validated by Azure. */
    private Finding template(AzurePoolSettings pool) throws InterruptedException {
        ScaleSetTemplate template = new ScaleSetTemplate(pool);
        List<String> problems = template.problems();
        if (!problems.isEmpty()) {
            return Finding.problem(template.describe() + " cannot be deployed as it is", problems);
        }
        String probeName = pool.scaleSet() + "-2";
        try {
            template.validate(clients, new LongOperations(clients.settings().operationTimeout(),
                    CallGate.ALWAYS_OPEN, clients.pace()), probeName, 1);
        } catch (CloudException e) {
            return Finding.problem(e.getMessage());
        } catch (RuntimeException e) {
            return Finding.problem(ArmErrors.map("validate a deployment of " + template.describe() + " as "
                    + probeName, e, 0).getMessage());
        }
        return Finding.ok(template.describe() + ": Azure validates a deployment of it as scale set " + probeName
                + " (nothing deployed)");
    }

    private synchronized Finding signIn() throws InterruptedException {
        if (signIn == null) {
            signIn = signInNow();
        }
        return signIn;
    }

    private Finding signInNow() throws InterruptedException {
        AzureSettings settings = clients.settings();
        String identity = settings.managedIdentityClientId() == null ? "" : " with the user-assigned identity "
                + settings.managedIdentityClientId() + " (azure.managedIdentityClientId)";
        String credential = settings.credential() == AzureSettings.CredentialKind.MANAGED_IDENTITY
                ? "the VM's managed identity (azure.credential = managedIdentity)" + identity
                : "the default credential chain (azure.credential = default)" + identity;
        try {
            clients.signIn(SIGN_IN_BOUND);
            return Finding.ok("signed in to Azure: " + credential + " gave a token for Resource Manager at "
                    + settings.resourceManagerEndpoint());
        } catch (TimeoutException e) {
            return Finding.problem("cannot sign in to Azure: " + credential + " gave no token within "
                    + SIGN_IN_BOUND.toSeconds() + " s. " + signInAdvice(settings));
        } catch (RuntimeException e) {
            List<String> lines = explanation(e);
            return Finding.problem("cannot sign in to Azure with " + credential + ": " + lines.get(0) + " "
                    + signInAdvice(settings), lines.subList(1, lines.size()));
        }
    }

    /**
     * What the credential said, line by line, and what its causes said: the chain names each credential it tried
     * in its message, and a credential that failed (rather than being unavailable) puts the reason in a cause.
     */
    private static List<String> explanation(Throwable failure) {
        List<String> lines = new ArrayList<>();
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            message.lines().map(String::strip)
                    .filter(line -> !line.isEmpty() && lines.stream().noneMatch(said -> said.contains(line)))
                    .forEach(lines::add);
        }
        return lines;
    }

    private static String signInAdvice(AzureSettings settings) {
        if (settings.credential() == AzureSettings.CredentialKind.MANAGED_IDENTITY) {
            return "Give the scaler's VM a system-assigned managed identity, or assign it a user-assigned one and "
                    + "name its client id in azure.managedIdentityClientId.";
        }
        return "On the scaler's Azure VM give the VM a managed identity (a user-assigned one named in "
                + "azure.managedIdentityClientId); elsewhere run az login as the user the scaler runs as, or set "
                + "AZURE_TENANT_ID, AZURE_CLIENT_ID and a certificate or federated token for a service principal.";
    }

    private static Finding notRead(AzurePoolSettings pool, RuntimeException e) {
        CloudException mapped = ArmErrors.map("read " + pool.describe(), e, 0);
        if (!(mapped instanceof NotFoundException)) {
            return Finding.problem(mapped.getMessage());
        }
        String p = "pool." + pool.pool() + ".azure.";
        return Finding.problem(pool.describe() + " of subscription " + pool.subscriptionId() + " does not exist"
                + azureCode(e).map(code -> " (Azure answered " + code + ")").orElse("") + ": check " + p
                + "scaleSet, " + p + "resourceGroup and " + p + "subscriptionId (or azure.subscriptionId)");
    }

    private Finding vmSize(AzurePoolSettings pool, ScaleSetModel model, ShapeSettings shape) {
        String p = "pool." + pool.pool() + ".";
        Optional<VmSizeCatalog.Size> size;
        try {
            size = sizes.size(pool.subscriptionId(), model.location(), model.vmSize());
        } catch (RuntimeException e) {
            String why = ArmErrors.map("read the VM sizes of region " + model.location(), e, 0).getMessage();
            return shape.complete().isPresent()
                    ? Finding.ok("VM size " + model.vmSize() + " not checked (" + why + "); the scaler does not "
                            + "need it, since " + p + "cpus and " + p + "memoryMb are set")
                    : Finding.problem(why + "; or set " + p + "cpus and " + p + "memoryMb so that the scaler "
                            + "need not read the VM size");
        }
        if (size.isEmpty()) {
            return Finding.problem("VM size " + model.vmSize() + " of " + pool.describe() + " is not among the "
                    + "resource SKUs of region " + model.location() + " for subscription " + pool.subscriptionId()
                    + (shape.complete().isPresent() ? ": check the scale set's size"
                            : ", so the scaler cannot tell what a node offers: check the scale set's size, or set "
                                    + p + "cpus and " + p + "memoryMb"));
        }
        VmSizeCatalog.Size s = size.get();
        if (s.restricted() != null) {
            return Finding.problem("VM size " + s.name() + " is restricted for subscription " + pool.subscriptionId()
                    + " (" + s.restricted() + "): Azure refuses every start and growth with SkuNotAvailable. Ask "
                    + "Microsoft for access to the size in the region (a quota support request), or give the scale "
                    + "set another size");
        }
        VmShape planned = shape.over(s.shape());
        List<String> given = new ArrayList<>();
        if (shape.cpus() != null) {
            given.add(p + "cpus");
        }
        if (shape.memoryMb() != null) {
            given.add(p + "memoryMb");
        }
        if (shape.gpus() != null) {
            given.add(p + "gpus");
        }
        return Finding.ok("VM size " + s.name() + " in " + model.location() + ": " + s.vCpus() + " vCPUs, "
                + gigabytes(s.memoryGb()) + " GB, " + s.gpus() + " GPUs; the scaler plans each node as "
                + planned.cpus() + " CPUs, " + planned.memoryMb() + " MiB and " + planned.gpus() + " GPUs"
                + (given.isEmpty() ? "" : " (" + String.join(", ", given) + " applied over the size)"));
    }

    private Finding permissions(AzurePoolSettings pool, ScaleSetModel model, StopAction stop) {
        List<RequiredAction> needed = RequiredAction.forPool(pool, model.flexible(), stop, removalQueue);
        String groupScope = "/subscriptions/" + pool.subscriptionId() + "/resourceGroups/" + pool.resourceGroup();
        GrantedActions onScaleSet;
        GrantedActions onGroup = null;
        try {
            PermissionsClient probe = clients.authorization(pool.subscriptionId()).roleServiceClient()
                    .getPermissions();
            onScaleSet = GrantedActions.of(probe.listForResource(pool.resourceGroup(), "Microsoft.Compute", "",
                    "virtualMachineScaleSets", pool.scaleSet()));
            if (needed.stream().anyMatch(RequiredAction::onResourceGroup)) {
                onGroup = GrantedActions.of(probe.listByResourceGroup(pool.resourceGroup()));
            }
        } catch (RuntimeException e) {
            return Finding.problem("the scaler's permissions cannot be checked: " + ArmErrors.map("ask Azure what "
                    + "the scaler's identity may do on " + pool.describe(), e, 0).getMessage());
        }
        List<String> missing = new ArrayList<>();
        for (RequiredAction required : needed) {
            GrantedActions granted = required.onResourceGroup() ? onGroup : onScaleSet;
            if (!granted.permits(required.action())) {
                missing.add(required.action() + " on " + (required.onResourceGroup() ? groupScope : model.id())
                        + ": " + required.purpose());
            }
        }
        if (missing.isEmpty()) {
            return Finding.ok("permissions: the scaler's identity may perform each of the " + needed.size()
                    + " actions pool " + pool.pool() + " needs on " + pool.describe());
        }
        return Finding.problem("permissions: the scaler's identity lacks " + missing.size() + " of the "
                + needed.size() + " actions pool " + pool.pool() + " needs; assign it " + ROLE + " on resource group "
                + pool.resourceGroup() + " (scope " + groupScope + ")", missing);
    }

    private static Optional<String> azureCode(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ManagementException m && m.getValue() != null && m.getValue().getCode() != null) {
                return Optional.of(m.getValue().getCode());
            }
        }
        return Optional.empty();
    }

    private static String gigabytes(double gb) {
        return gb == Math.rint(gb) ? Long.toString((long) gb) : Double.toString(gb);
    }
}
