package io.hpcscale.common.config;

import static io.hpcscale.common.config.Component.PBS_AGENT;
import static io.hpcscale.common.config.Component.SCALER;
import static io.hpcscale.common.config.Component.SLURM_AGENT;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every key of the one properties file, for every program. Each program validates the whole file against this
 * catalog, so a typo is reported by whichever service starts first, the same way on every host.
 */
public final class ConfigCatalog {
    private static final Set<Component> AGENTS = EnumSet.of(PBS_AGENT, SLURM_AGENT);
    private static final Set<Component> ALL = EnumSet.allOf(Component.class);

    private final List<ConfigKey> keys;

    private ConfigCatalog(List<ConfigKey> keys) {
        this.keys = Collections.unmodifiableList(keys);
    }

    public static ConfigCatalog standard() {
        List<ConfigKey> keys = new ArrayList<>();
        keys.add(key("store.type", ValueKind.CHOICE, "sqlite", ALL)
                .choices("sqlite", "cosmos", "memory")
                .describe("Where the ClusterLoad documents live: sqlite (one file shared by agent and scaler on one "
                        + "host), cosmos (Azure Cosmos DB: agent and scaler on different hosts) or memory (tests and "
                        + "trials only: nothing is kept, nothing is shared).")
                .build());
        keys.add(key("store.sqlite.path", ValueKind.PATH, "/var/lib/hpcscale/clusterload.db", ALL)
                .describe("The SQLite file. Agent and scaler must name the same file. Its directory is created "
                        + "if missing.")
                .build());
        keys.add(key("store.sqlite.busyTimeout", ValueKind.DURATION, "10s", ALL).minimumMillis(1)
                .describe("How long a write waits for another process holding the SQLite write lock before "
                        + "retrying.")
                .build());
        keys.add(key("store.cosmos.endpoint", ValueKind.STRING, null, ALL)
                .describe("cosmos: the account's URI, e.g. https://myaccount.documents.azure.com:443/. Required "
                        + "when store.type = cosmos.")
                .build());
        keys.add(key("store.cosmos.database", ValueKind.STRING, "hpcscale", ALL)
                .describe("cosmos: the database holding the container.")
                .build());
        keys.add(key("store.cosmos.container", ValueKind.STRING, "ClusterLoad", ALL)
                .describe("cosmos: the container: partition key /PoolName, time to live on (no default).")
                .build());
        keys.add(key("store.cosmos.auth", ValueKind.CHOICE, "aad", ALL).choices("aad", "key")
                .describe("cosmos: aad signs in with Microsoft Entra ID (DefaultAzureCredential: the VM's managed "
                        + "identity, workload identity or the environment; no secret on disk), and needs the Cosmos "
                        + "DB Built-in Data Contributor role; key uses the account key in store.cosmos.keyFile.")
                .build());
        keys.add(key("store.cosmos.keyFile", ValueKind.PATH, null, ALL)
                .describe("cosmos, auth = key: a file holding the account key, readable by the service user only "
                        + "(a file others can read is refused). The key is never logged.")
                .build());
        keys.add(key("store.cosmos.managedIdentityClientId", ValueKind.STRING, null, ALL)
                .defaultMeaning("the system-assigned identity, or AZURE_CLIENT_ID")
                .describe("cosmos, auth = aad: the client id of a user-assigned managed identity to sign in with.")
                .build());
        keys.add(key("store.cosmos.preferredRegions", ValueKind.STRING, null, ALL).defaultMeaning("none")
                .describe("cosmos: Azure regions to read from, nearest first, comma-separated (e.g. \"West Europe, "
                        + "North Europe\"), for an account replicated to several regions.")
                .build());
        keys.add(key("store.cosmos.consistency", ValueKind.CHOICE, null, ALL)
                .choices("Strong", "BoundedStaleness", "Session", "ConsistentPrefix", "Eventual")
                .defaultMeaning("the account's default level")
                .describe("cosmos: the consistency level to read with. It may only be as strong as the account's or "
                        + "weaker (a stronger one fails every request); by default the account's own level is used. "
                        + "The lease and the scaler state stay safe at any level: they are written only with "
                        + "ETag-conditional writes.")
                .build());
        keys.add(key("store.cosmos.createIfMissing", ValueKind.BOOLEAN, "true", ALL)
                .describe("cosmos: true creates the database and the container if they do not exist (needs an "
                        + "identity allowed to: the account key, or a control-plane role); false requires them and "
                        + "says what to create.")
                .build());
        keys.add(key("store.cosmos.connectionMode", ValueKind.CHOICE, "gateway", ALL).choices("gateway", "direct")
                .describe("cosmos: gateway (HTTPS on port 443 only, simplest through firewalls) or direct (TCP to "
                        + "the replicas on ports 10000-20000, lower latency).")
                .build());
        keys.add(key("store.cosmos.requestTimeout", ValueKind.DURATION, "10s", ALL).minimumMillis(500)
                .describe("cosmos: bound on one operation, its retries included, so a hung service fails the cycle "
                        + "rather than holding it.")
                .build());
        keys.add(key("store.cosmos.requestUnitsPerSecond", ValueKind.INTEGER, null, ALL).minimum(100)
                .defaultMeaning("no pacing")
                .describe("cosmos: the request units this program may spend per second, on average (one second may "
                        + "see up to about twice as much). The SDK spreads a cycle's writes over as many seconds as "
                        + "they need instead of meeting 429s on a container provisioned with less; give the programs "
                        + "shares that add up to at most half the container's RU/s (docs/running-on-azure.md).")
                .build());
        keys.add(key("azure.cloud", ValueKind.CHOICE, "public", Set.of(SCALER))
                .choices("public", "china", "usgov", "custom")
                .describe("The Azure cloud of the scale sets: public, china (Azure operated by 21Vianet), usgov, or "
                        + "custom (another cloud serving Compute API 2025-04-01: set azure.resourceManagerEndpoint). "
                        + "Azure Stack Hub serves an older Compute API and is not supported.")
                .build());
        keys.add(key("azure.resourceManagerEndpoint", ValueKind.STRING, null, Set.of(SCALER))
                .describe("azure.cloud = custom: the Resource Manager endpoint, e.g. "
                        + "https://management.example-cloud.net/. Required for a custom cloud.")
                .build());
        keys.add(key("azure.resourceManagerAudience", ValueKind.STRING, null, Set.of(SCALER))
                .defaultMeaning("azure.resourceManagerEndpoint")
                .describe("azure.cloud = custom: the audience of the tokens Resource Manager accepts, as the cloud's "
                        + "metadata endpoint shows it; every token is asked for this audience.")
                .build());
        keys.add(key("azure.authorityHost", ValueKind.STRING, null, Set.of(SCALER))
                .defaultMeaning("the cloud's own; for custom, https://login.microsoftonline.com/")
                .describe("Microsoft Entra ID endpoint used to sign in (not used by managed identity).")
                .build());
        keys.add(key("azure.credential", ValueKind.CHOICE, "default", Set.of(SCALER))
                .choices("default", "managedIdentity")
                .describe("How the scaler signs in to Azure: default (DefaultAzureCredential: environment, "
                        + "workload identity, the VM's managed identity, then the Azure CLI's login) or "
                        + "managedIdentity (only the VM's managed identity). No secret is kept in any document or "
                        + "log.")
                .build());
        keys.add(key("azure.managedIdentityClientId", ValueKind.STRING, null, Set.of(SCALER))
                .defaultMeaning("the system-assigned identity, or AZURE_CLIENT_ID")
                .describe("The client id of a user-assigned managed identity to sign in with.")
                .build());
        keys.add(key("azure.subscriptionId", ValueKind.STRING, null, Set.of(SCALER))
                .describe("The subscription of every azure pool that does not name its own "
                        + "(pool.<name>.azure.subscriptionId).")
                .build());
        keys.add(key("azure.operationTimeout", ValueKind.DURATION, "10m", Set.of(SCALER)).minimumMillis(1000)
                .describe("How long the scaler waits for one start, stop, delete or resize operation to finish. "
                        + "The operation goes on in Azure after that; the next listing shows what it did. Other "
                        + "pools are not held up meanwhile.")
                .build());
        keys.add(key("azure.requestTimeout", ValueKind.DURATION, "60s", Set.of(SCALER)).minimumMillis(1000)
                .describe("Bound on one HTTP request to Resource Manager; a request that runs longer is retried, "
                        + "then fails the call.")
                .build());
        keys.add(key("azure.flexibleParallelism", ValueKind.INTEGER, "10", Set.of(SCALER)).minimum(1)
                .describe("Flexible scale sets are started and deallocated one VM per request: how many requests "
                        + "at once. The requests are sent, not waited for: the next listing shows what they did.")
                .build());
        keys.add(key("azure.minListInterval", ValueKind.DURATION, "60s", Set.of(SCALER)).minimumMillis(1000)
                .describe("A scale set's instances are listed at most this often; cycles in between plan from the "
                        + "last listing and what the scaler asked since. Listing spends Compute's "
                        + "HighCostGetVMScaleSet budget (about 190 requests per 3 minutes and 900 per 30 minutes per "
                        + "subscription, 50 instances a request), of which the scaler spends at most half: with "
                        + "many large scale sets, listings are further apart than this (docs/running-on-azure.md).")
                .build());
        keys.add(key("azure.removalQueue.url", ValueKind.STRING, null, Set.of(SCALER))
                .defaultMeaning("none: nodes cannot ask to be removed")
                .describe("The Azure Storage queue on which nodes (hpcscale-delete-me) or a render manager ask for a "
                        + "VM to be removed, e.g. https://myaccount.queue.core.windows.net/hpcscale-removals. The "
                        + "scaler signs in to it as to Resource Manager (azure.credential, "
                        + "azure.managedIdentityClientId). Messages it cannot carry out are set aside on the queue "
                        + "of the same name with -poison added.")
                .build());
        keys.add(key("azure.removalQueue.connectionStringFile", ValueKind.PATH, null, Set.of(SCALER))
                .defaultMeaning("none")
                .describe("Instead of azure.removalQueue.url: a file holding the storage account's connection "
                        + "string, readable by the service user only (a file others can read is refused); name the "
                        + "queue in azure.removalQueue.queue. The connection string is never logged.")
                .build());
        keys.add(key("azure.removalQueue.queue", ValueKind.STRING, null, Set.of(SCALER))
                .describe("With azure.removalQueue.connectionStringFile: the queue's name (3 to 56 lower-case "
                        + "letters, digits and hyphens).")
                .build());
        keys.add(key("azure.removalQueue.maxTries", ValueKind.INTEGER, "5", Set.of(SCALER)).minimum(1)
                .describe("A removal message received more often than this without being carried out is set aside "
                        + "on the poison queue, with an event.")
                .build());
        keys.add(key("azure.removalQueue.visibilityTimeout", ValueKind.DURATION, "5m", Set.of(SCALER))
                .minimumMillis(1000)
                .describe("How long a received removal message stays hidden from the next receive; one not deleted "
                        + "by then is received again (whole seconds, at most 7d).")
                .build());
        keys.add(key("log.level", ValueKind.CHOICE, "info", ALL)
                .choices("error", "warn", "info", "debug", "trace")
                .describe("How much the programs log. info logs one line per decision.")
                .build());
        keys.add(key("log.format", ValueKind.CHOICE, "text", ALL).choices("text", "json")
                .describe("How log lines are written on stderr: text, for people reading the journal, or json, one "
                        + "object per line with the pool, instance, node, action and reason of each decision as "
                        + "fields of their own, for log shippers. The option --log-format overrides it.")
                .build());

        keys.add(key("agent.interval", ValueKind.DURATION, "120s", AGENTS).minimumMillis(1000)
                .describe("Time between two agent cycles (read the scheduler, write what changed, carry out "
                        + "drains).")
                .build());
        keys.add(key("agent.quickInterval", ValueKind.DURATION, "10s", AGENTS).minimumMillis(0)
                .describe("Between full cycles, the agent checks this often, cheaply, whether one is worth running "
                        + "now: a job queued or gone (PBS qstat -Q, Slurm squeue of pending jobs) or a drain request "
                        + "asked or withdrawn (one point read of the scaler's marker). A queued job then reaches the "
                        + "scaler in seconds. 0 turns the checks off.")
                .build());
        keys.add(key("agent.commandTimeout", ValueKind.DURATION, "60s", AGENTS).minimumMillis(100)
                .describe("Bound on one scheduler command. A command that runs longer is killed and the cycle "
                        + "writes only the heartbeat, with the error.")
                .build());
        keys.add(key("agent.commandMaxOutput", ValueKind.SIZE, "512MB", AGENTS).minimum(1024)
                .describe("Largest output kept from one scheduler command. Larger output fails the cycle "
                        + "rather than exhausting memory.")
                .build());
        keys.add(key("agent.shutdownGrace", ValueKind.DURATION, "2m", AGENTS).minimumMillis(0)
                .describe("On SIGTERM or SIGINT the agent lets the scheduler command in flight finish, writes what "
                        + "it read, and exits 0; after this long it exits at once (status 1), killing the command. "
                        + "Set the systemd unit's TimeoutStopSec a little above it.")
                .build());
        keys.add(key("agent.host", ValueKind.STRING, null, AGENTS).defaultMeaning("this host's name")
                .describe("Name of this agent's host in its heartbeat document id (agent-<host>-<scheduler>).")
                .build());

        keys.add(key("agent.pbs.qstat", ValueKind.STRING, "qstat", Set.of(PBS_AGENT))
                .describe("The qstat command: a name on the PATH or a full path, e.g. /opt/pbs/bin/qstat.")
                .build());
        keys.add(key("agent.pbs.pbsnodes", ValueKind.STRING, "pbsnodes", Set.of(PBS_AGENT))
                .describe("The pbsnodes command: a name on the PATH or a full path, e.g. /opt/pbs/bin/pbsnodes.")
                .build());

        keys.add(key("scaler.interval", ValueKind.DURATION, "60s", Set.of(SCALER)).minimumMillis(1000)
                .describe("Time between two scaler cycles (read the documents and each pool's instances, plan, "
                        + "act).")
                .build());
        keys.add(key("scaler.fullReadInterval", ValueKind.DURATION, "1h", Set.of(SCALER)).minimumMillis(60_000)
                .describe("Each cycle reads only the documents that changed since the last. This often each pool is "
                        + "read whole instead (one pool a cycle); a document the incremental reads had missed is then "
                        + "logged as a bug. A pool not read for 30 minutes is read whole too: Cosmos DB keeps a record "
                        + "of deletions for an hour.")
                .build());
        keys.add(key("scaler.quickInterval", ValueKind.DURATION, "5s", Set.of(SCALER)).minimumMillis(0)
                .describe("Between cycles, the scaler reads each agent's heartbeat this often (one small point read "
                        + "per agent) and runs a cycle at once when an agent wrote a change, so a queued job or a "
                        + "drained node is acted on in seconds. 0 turns the checks off.")
                .build());
        keys.add(key("scaler.dryRun", ValueKind.BOOLEAN, "false", Set.of(SCALER))
                .describe("true: plan and log every decision, but start, stop and drain nothing and write no "
                        + "document.")
                .build());
        keys.add(key("scaler.staleAfter", ValueKind.DURATION, "6m", Set.of(SCALER)).minimumMillis(1000)
                .describe("A pool whose agent has not read the scheduler successfully for this long is frozen: "
                        + "nothing is drained, stopped or started for it beyond its min, until the agent recovers.")
                .build());
        keys.add(key("scaler.leaseTtl", ValueKind.DURATION, null, Set.of(SCALER)).minimumMillis(3000)
                .defaultMeaning("three times scaler.interval")
                .describe("Only the scaler holding the lease acts; it renews the lease every cycle. A standby "
                        + "scaler takes over once it has seen the lease unrenewed for this long, timed on its own "
                        + "clock from its first sight (at once if the holder released it or was this host's own "
                        + "previous run). A holder that cannot renew stops acting a margin (a quarter of it, at most "
                        + "30s) before it could expire. No host's wall clock is compared with another's.")
                .build());
        keys.add(key("scaler.shutdownGrace", ValueKind.DURATION, "2m", Set.of(SCALER)).minimumMillis(0)
                .describe("On SIGTERM or SIGINT the scaler begins no new call, lets the cloud calls and commands in "
                        + "flight finish and records their outcome, gives up its lease and exits 0; after this long "
                        + "it exits at once (status 1), killing its commands. Set the systemd unit's TimeoutStopSec "
                        + "a little above it.")
                .build());
        keys.add(key("scaler.hooks.before", ValueKind.STRING, null, Set.of(SCALER)).defaultMeaning("none")
                .describe("A command run before each pool's actions of a cycle (no shell; quotes group words), with "
                        + "the pool's plan as JSON on standard input. It may refuse any of the actions by answering "
                        + "{\"veto\": [{\"id\": 2, \"reason\": \"...\"}]}; it cannot add one, and every stop "
                        + "is still re-checked on a fresh read. A hook that fails, runs past scaler.hooks.timeout or "
                        + "answers anything else holds the pool's actions for that cycle, each a refused event "
                        + "(docs/hooks.md). Not run in dry run.")
                .build());
        keys.add(key("scaler.hooks.after", ValueKind.STRING, null, Set.of(SCALER)).defaultMeaning("none")
                .describe("A command run after each pool's actions of a cycle, with each action's outcome as JSON "
                        + "on standard input; what it prints is ignored, a failure is logged (docs/hooks.md).")
                .build());
        keys.add(key("scaler.hooks.timeout", ValueKind.DURATION, "30s", Set.of(SCALER)).minimumMillis(100)
                .describe("How long a hook may run before it is killed, with its children: the pool's cycle waits "
                        + "that long at most.")
                .build());
        keys.add(key("scaler.poolConcurrency", ValueKind.INTEGER, "4", Set.of(SCALER)).minimum(1)
                .describe("How many pools are planned and acted on at once, so that one pool's slow operation does "
                        + "not hold up the others. A pool whose operation outlasts a cycle is planned again once "
                        + "it ends.")
                .build());
        keys.add(key("scaler.eventTtl", ValueKind.DURATION, "7d", Set.of(SCALER)).minimumMillis(60_000)
                .describe("How long the store keeps the scaler's events documents.")
                .build());

        keys.add(key("metrics.port", ValueKind.INTEGER, "0", Set.of(SCALER)).minimum(0)
                .describe("The scaler's Prometheus metrics and health check, over HTTP on this port: /metrics and "
                        + "/healthz. 0 turns them off.")
                .build());
        keys.add(key("metrics.agentPort", ValueKind.INTEGER, "0", AGENTS).minimum(0)
                .describe("The agent's /metrics and /healthz on this port, apart from the scaler's so that both may "
                        + "run on one host with one configuration. 0 turns them off.")
                .build());
        keys.add(key("metrics.address", ValueKind.STRING, "0.0.0.0", ALL)
                .describe("The address the metrics port listens on: 0.0.0.0 for every interface (Prometheus "
                        + "usually scrapes from another host; the metrics hold pool and node counts, no secret), "
                        + "127.0.0.1 for this host only.")
                .build());
        keys.add(key("metrics.unhealthyAfter", ValueKind.INTEGER, "3", ALL).minimum(1)
                .describe("/healthz fails after this many cycles in a row failed (and, for the scaler, at once when "
                        + "it loses the lease it held).")
                .build());
        keys.add(key("command.secretOptions", ValueKind.STRING, null, ALL)
                .describe("Options of the commands hpcscale runs (power commands, scheduler commands) whose value is "
                        + "secret, comma-separated and spelt exactly (-P is not -p): the argument after each, or its "
                        + "=value, never appears in a log line, event, heartbeat or message. Options whose name ends "
                        + "in password, pass, secret, token, key, sas, sig or credential are hidden anyway. Better "
                        + "still, pass secrets in a file or the environment (docs/security.md).")
                .build());
        keys.add(key("pool.<name>.provider", ValueKind.CHOICE, null, Set.of(SCALER)).requiredBy(SCALER)
                .choices("azure", "command", "simulated")
                .describe("How the pool's instances are started and stopped: azure (an Azure Virtual Machine Scale "
                        + "Set, Uniform or Flexible), command (configured commands, for on-premises power control or "
                        + "test clusters) or simulated (an in-memory cloud, for trials).")
                .build());
        keys.add(key("pool.<name>.cpus", ValueKind.INTEGER, null, Set.of(SCALER)).minimum(1)
                .defaultMeaning("azure: the VM size's vCPUs; required for other providers")
                .describe("CPUs of one instance, as the scheduler counts them (PBS ncpus, Slurm CPUs).")
                .build());
        keys.add(key("pool.<name>.memoryMb", ValueKind.INTEGER, null, Set.of(SCALER)).minimum(1)
                .defaultMeaning("azure: the VM size's memory less 5% for the operating system; required for "
                        + "other providers")
                .describe("Memory of one instance available to jobs, in MiB, as the scheduler counts it.")
                .build());
        keys.add(key("pool.<name>.gpus", ValueKind.INTEGER, null, Set.of(SCALER)).minimum(0)
                .defaultMeaning("azure: the VM size's GPUs; 0 for other providers")
                .describe("GPUs of one instance.")
                .build());
        keys.add(key("pool.<name>.min", ValueKind.INTEGER, "0", Set.of(SCALER)).minimum(0)
                .describe("Instances kept running even when idle.")
                .build());
        keys.add(key("pool.<name>.max", ValueKind.INTEGER, null, Set.of(SCALER)).minimum(0).requiredBy(SCALER)
                .describe("Most instances running at once (your quota for this pool).")
                .build());
        keys.add(key("pool.<name>.idleTimeout", ValueKind.DURATION, "5m", Set.of(SCALER)).minimumMillis(0)
                .describe("A node free for this long, and not needed by queued jobs, is drained and stopped.")
                .build());
        keys.add(key("pool.<name>.bootTimeout", ValueKind.DURATION, "20m", Set.of(SCALER)).minimumMillis(1000)
                .describe("An instance started by hpcscale whose node has not reported to the scheduler within "
                        + "this long is stopped and counted as a failed boot.")
                .build());
        keys.add(key("pool.<name>.countHeldJobs", ValueKind.BOOLEAN, "false", Set.of(SCALER))
                .describe("true: held jobs count as demand too (they start nodes before they are released).")
                .build());
        keys.add(key("pool.<name>.stopAction", ValueKind.CHOICE, "deallocate", Set.of(SCALER))
                .choices("deallocate", "powerOff", "delete")
                .describe("How an instance is stopped: deallocate (no compute charge, keeps its disk), powerOff "
                        + "(faster restart, still charged), delete. The command provider has one stop command.")
                .build());
        keys.add(key("pool.<name>.maxStartPerCycle", ValueKind.INTEGER, "100", Set.of(SCALER)).minimum(1)
                .describe("Most instances started (or created) in one scaler cycle.")
                .build());
        keys.add(key("pool.<name>.maxStopPerCycle", ValueKind.INTEGER, "100", Set.of(SCALER)).minimum(1)
                .describe("Most nodes asked to drain in one scaler cycle; drained nodes are then stopped as soon "
                        + "as the agent confirms them empty.")
                .build());
        keys.add(key("pool.<name>.bootFailuresBeforeBackoff", ValueKind.INTEGER, "3", Set.of(SCALER)).minimum(1)
                .describe("Failed boots in a row that put the pool in backoff.")
                .build());
        keys.add(key("pool.<name>.capacityBackoff", ValueKind.DURATION, "10m", Set.of(SCALER)).minimumMillis(0)
                .describe("How long a pool starts nothing after a capacity or quota error, or after "
                        + "bootFailuresBeforeBackoff failed boots in a row.")
                .build());
        keys.add(key("pool.<name>.pricePerHour", ValueKind.DECIMAL, null, Set.of(SCALER))
                .describe("What one instance of the pool costs per hour, in any currency: hpcscale-scaler usage "
                        + "then reports cost. Default: no cost reported.")
                .build());
        keys.add(key("pool.<name>.vmSize", ValueKind.STRING, null, Set.of(SCALER))
                .describe("The pool's VM size as reports name it (Standard_HB120rs_v3). Default: its shape, "
                        + "cpus/memory/gpus.")
                .build());
        keys.add(key("pool.<name>.target", ValueKind.CHOICE, "demand", Set.of(SCALER)).choices("demand", "fixed")
                .describe("How many instances the pool runs: demand (what the scheduler's queued jobs need, between "
                        + "min and max) or fixed (a count set by the administrator or a render manager: the "
                        + "resource group's tag named by targetTag for the azure provider, else the store; change it "
                        + "with hpcscale-scaler set-capacity). Evicted or deleted instances are started or replaced "
                        + "to keep it.")
                .build());
        keys.add(key("pool.<name>.targetTag", ValueKind.STRING, "TOTAL_NODES", Set.of(SCALER))
                .describe("target = fixed, azure provider: the tag of the pool's resource group holding the count. "
                        + "set-capacity merges this one tag and keeps the group's other tags.")
                .build());
        keys.add(key("pool.<name>.shrink", ValueKind.CHOICE, "lazy", Set.of(SCALER)).choices("lazy", "idle-first")
                .describe("target = fixed, when the target is lowered and no agent reports the pool's nodes (so "
                        + "hpcscale cannot see which run jobs): lazy leaves the surplus to evictions and nodes that "
                        + "remove themselves; idle-first also stops instances still booting, newest first, but never "
                        + "a running one. With an agent the surplus is always drained and stopped, idle nodes first.")
                .build());
        keys.add(key("pool.<name>.evictionRoundsBeforeBackoff", ValueKind.INTEGER, "3", Set.of(SCALER)).minimum(1)
                .describe("Spot pools: cycles finding evictions within evictionWindow that put the pool in backoff "
                        + "(capacityBackoff, with an event): what one cycle finds is replaced at once, "
                        + "evictions that keep coming are not chased.")
                .build());
        keys.add(key("pool.<name>.evictionWindow", ValueKind.DURATION, "30m", Set.of(SCALER)).minimumMillis(1000)
                .describe("Spot pools: the window in which evictionRoundsBeforeBackoff is counted.")
                .build());
        keys.add(key("pool.<name>.command.list", ValueKind.STRING, null, Set.of(SCALER))
                .describe("command provider: prints the pool's instances, one per line: instance node state "
                        + "(state: running, starting, stopping or stopped; on/off also accepted).")
                .build());
        keys.add(key("pool.<name>.command.start", ValueKind.STRING, null, Set.of(SCALER))
                .describe("command provider: starts one instance; {instance} and {node} are replaced. Exit 69 "
                        + "means no capacity (the pool backs off), exit 75 means try again later. Starting an "
                        + "instance that already runs must succeed and change nothing: a scaler killed in the "
                        + "middle of a call repeats it.")
                .build());
        keys.add(key("pool.<name>.command.stop", ValueKind.STRING, null, Set.of(SCALER))
                .describe("command provider: stops one instance; {instance} and {node} are replaced. Stopping an "
                        + "instance already stopped must succeed and change nothing.")
                .build());
        keys.add(key("pool.<name>.command.timeout", ValueKind.DURATION, "60s", Set.of(SCALER)).minimumMillis(100)
                .describe("command provider: bound on one list, start or stop command.")
                .build());
        keys.add(key("pool.<name>.simulated.bootDelay", ValueKind.DURATION, "3m", Set.of(SCALER)).minimumMillis(0)
                .describe("simulated provider: how long an instance takes from start to running.")
                .build());
        keys.add(key("pool.<name>.azure.subscriptionId", ValueKind.STRING, null, Set.of(SCALER))
                .defaultMeaning("azure.subscriptionId")
                .describe("azure provider: the subscription of the pool's scale set.")
                .build());
        keys.add(key("pool.<name>.azure.resourceGroup", ValueKind.STRING, null, Set.of(SCALER))
                .describe("azure provider: the resource group of the pool's scale set (PintaScaler's \"RG,VMSS\" "
                        + "pair: RG here, VMSS in azure.scaleSet). Required for the azure provider.")
                .build());
        keys.add(key("pool.<name>.azure.scaleSet", ValueKind.STRING, null, Set.of(SCALER))
                .describe("azure provider: the name of the pool's Virtual Machine Scale Set. Its orchestration mode "
                        + "(Uniform or Flexible) and VM size are read from Azure. Required for the azure provider.")
                .build());
        keys.add(key("pool.<name>.azure.allowCreate", ValueKind.BOOLEAN, "false", Set.of(SCALER))
                .describe("azure provider: true lets the scaler raise the scale set's capacity when no stopped "
                        + "instance is left to start (up to max). Instances are only ever removed by deleting the "
                        + "drained ones by id (stopAction = delete), never by lowering the capacity, which would "
                        + "let Azure choose.")
                .build());
        keys.add(key("pool.<name>.azure.vmsPerScaleSet", ValueKind.INTEGER, "0", Set.of(SCALER)).minimum(0)
                .describe("azure provider, with allowCreate: 0 keeps the pool to its scale set. More spreads it over "
                        + "its scale set (the template) and scale sets made from it, each grown to at most this many "
                        + "instances (smaller scale sets boot faster). A scale set that stops growing (a capacity "
                        + "error, or the capacity asked not reached within sealAfter) is sealed, and a new one is made "
                        + "from azure.template (<scaleSet>-2, -3, ...) for the rest; sealed scale sets that empty are "
                        + "deleted. Needs azure.template.")
                .build());
        keys.add(key("pool.<name>.azure.template", ValueKind.STRING, null, Set.of(SCALER))
                .describe("azure provider, with vmsPerScaleSet: what new scale sets of the pool are deployed from, "
                        + "complete with custom data and extension settings: an ARM template file (JSON; compile "
                        + "Bicep with az bicep build) or the resource id of a template spec version "
                        + "(/subscriptions/.../templateSpecs/<name>/versions/<version>). It takes the parameters name "
                        + "(the new scale set's name) and capacity; every other parameter has a default or is in "
                        + "azure.templateParameters. Scale sets are never copied from another's model: Azure never "
                        + "returns custom data or protected settings, so a copy would boot without them.")
                .build());
        keys.add(key("pool.<name>.azure.templateParameters", ValueKind.PATH, null, Set.of(SCALER))
                .describe("azure provider, with azure.template: an ARM parameters file (JSON) with the template's "
                        + "other parameters. Keep it readable by the scaler's user only if it holds a secret.")
                .build());
        keys.add(key("pool.<name>.azure.sealAfter", ValueKind.DURATION, "15m", Set.of(SCALER)).minimumMillis(1000)
                .describe("azure provider, vmsPerScaleSet > 0: a scale set asked to grow that has not reached the "
                        + "capacity asked within this is sealed.")
                .build());
        keys.add(key("pool.<name>.azure.nodeName", ValueKind.STRING, "computerName", Set.of(SCALER))
                .describe("azure provider: how an instance's scheduler node is named: computerName (the OS host "
                        + "name; Uniform: the prefix and six base-36 digits, e.g. pinta007y000001), vmName, "
                        + "tag:<tag name> (the instance's tag of that name), or a template using {computerName}, "
                        + "{vmName} and {instanceId}, e.g. node-{instanceId}. Matched without case or domain.")
                .build());

        keys.add(key("agent.slurm.squeue", ValueKind.STRING, "squeue", Set.of(SLURM_AGENT))
                .describe("The squeue command: a name on the PATH or a full path.")
                .build());
        keys.add(key("agent.slurm.sinfo", ValueKind.STRING, "sinfo", Set.of(SLURM_AGENT))
                .describe("The sinfo command: a name on the PATH or a full path.")
                .build());
        keys.add(key("agent.slurm.scontrol", ValueKind.STRING, "scontrol", Set.of(SLURM_AGENT))
                .describe("The scontrol command, used to drain and resume nodes.")
                .build());
        keys.add(key("agent.slurm.sdiag", ValueKind.STRING, "sdiag", Set.of(SLURM_AGENT))
                .describe("The sdiag command, whose job counters are the quick check between full reads.")
                .build());
        keys.add(key("agent.slurm.slurmConf", ValueKind.PATH, null, Set.of(SLURM_AGENT))
                .defaultMeaning("Slurm's own default, or SLURM_CONF of the agent's environment")
                .describe("slurm.conf of the cluster, passed to the Slurm commands as SLURM_CONF.")
                .build());
        keys.add(key("agent.slurm.format", ValueKind.CHOICE, "auto", Set.of(SLURM_AGENT))
                .choices("auto", "json", "pipe")
                .describe("How squeue and sinfo are read: json (squeue --json, Slurm 22.05 and later), pipe "
                        + "(pipe-separated -o formats, older Slurm), or auto (probe once at start-up and log which).")
                .build());
        keys.add(key("agent.slurm.multiPartition", ValueKind.CHOICE, "first", Set.of(SLURM_AGENT))
                .choices("first", "every")
                .describe("A job pending in several partitions (-p debug,batch) counts for the first partition a "
                        + "pool serves (first), or for every pool serving one of them (every: faster start, but "
                        + "nodes may start that the job does not use).")
                .build());

        keys.add(key("pool.<name>.queue", ValueKind.STRING, "<name>", Set.of(PBS_AGENT))
                .describe("The PBS queue whose jobs this pool serves. Each queue maps to at most one pool.")
                .build());
        keys.add(key("pool.<name>.partition", ValueKind.STRING, "<name>", Set.of(SLURM_AGENT))
                .describe("The Slurm partition whose jobs this pool serves. Each partition maps to one pool; nodes "
                        + "belong to the pool of their first partition that maps.")
                .build());
        keys.add(key("pool.<name>.fallbacks", ValueKind.STRING, null, ALL).defaultMeaning("none")
                .describe("Other pools, comma-separated in order, that serve this pool's queue or partition when it "
                        + "cannot: a job that does not fit its VM size, or that finds it at its max or in backoff "
                        + "(a capacity or quota error falls through at once), goes to the first of them that can take "
                        + "it. Each is a full pool (its own scale set, VM size, max) that sets no queue, partition or "
                        + "nodePattern of its own: its jobs and nodes are this pool's.")
                .build());
        keys.add(key("pool.<name>.slurmPowerSaving", ValueKind.BOOLEAN, "false", Set.of(SCALER))
                .describe("true: the pool's nodes are Slurm CLOUD nodes under Slurm's power saving; the scaler "
                        + "starts and stops exactly the nodes Slurm asks for through hpcscale-slurm-resume and "
                        + "hpcscale-slurm-suspend (within max, quota and backoff) and plans nothing itself.")
                .build());
        keys.add(key("pool.<name>.nodePattern", ValueKind.REGEX, null, AGENTS).defaultMeaning("none")
                .describe("Regular expression for the names of nodes that belong to the pool, used when the "
                        + "scheduler does not say (PBS: no queue attribute and no Qlist).")
                .build());
        return new ConfigCatalog(keys);
    }

    public List<ConfigKey> keys() {
        return keys;
    }

    public Optional<ConfigKey> find(String key) {
        return keys.stream().filter(k -> k.matches(key)).findFirst();
    }

    public ConfigKey require(String key) {
        return find(key).orElseThrow(() -> new IllegalArgumentException("no such setting in the catalog: " + key));
    }

    public List<ConfigKey> poolKeys() {
        return keys.stream().filter(ConfigKey::isPoolKey).toList();
    }

    private static Builder key(String pattern, ValueKind kind, String defaultValue, Set<Component> usedBy) {
        return new Builder(pattern, kind, defaultValue, usedBy);
    }

    private static final class Builder {
        private final String pattern;
        private final ValueKind kind;
        private final String defaultValue;
        private final Set<Component> usedBy;
        private String defaultMeaning;
        private List<String> choices = List.of();
        private Long minimum;
        private String description = "";
        private Set<Component> requiredBy = Set.of();

        Builder(String pattern, ValueKind kind, String defaultValue, Set<Component> usedBy) {
            this.pattern = pattern;
            this.kind = kind;
            this.defaultValue = defaultValue;
            this.usedBy = usedBy;
        }

        Builder choices(String... values) {
            choices = List.of(values);
            return this;
        }

        Builder minimum(long value) {
            minimum = value;
            return this;
        }

        Builder minimumMillis(long millis) {
            minimum = millis;
            return this;
        }

        Builder defaultMeaning(String meaning) {
            defaultMeaning = meaning;
            return this;
        }

        Builder requiredBy(Component... components) {
            requiredBy = Set.of(components);
            return this;
        }

        Builder describe(String text) {
            description = text;
            return this;
        }

        ConfigKey build() {
            return new ConfigKey(pattern, kind, defaultValue, defaultMeaning, choices, minimum, description, usedBy,
                    requiredBy);
        }
    }
}
