#!/usr/bin/env node
// Local Cosmos DB (NoSQL API) server for tests: @vercel/cosmosdb-server 1.0.1 behind a thin wrapper that
// closes the gaps the official Java SDK trips over (see README.md, "Fixes") and adds fault injection and
// traffic statistics under /_test/ (a path the SDK never uses).
//
//   node cosmos-server.js --pfx server.p12 --passphrase changeit [--port 0] [--host 127.0.0.1]
//
// Prints "cosmos-server listening on https://HOST:PORT" once listening. Exits when stdin closes (so a
// test JVM that dies cannot leave it behind), on SIGTERM and on SIGINT.
"use strict";

const fs = require("fs");
const { Readable } = require("stream");
const { AsyncLocalStorage } = require("async_hooks");
const { randomUUID } = require("crypto");

// The fixes need the in-memory store itself, which the package only exposes through its modules. The
// version is pinned exactly in package.json, so these internal paths cannot move under us.
const LIB = "@vercel/cosmosdb-server/lib";
const { createHttpsServer } = require("@vercel/cosmosdb-server");
const accountModule = require(`${LIB}/account`);
const Documents = require(`${LIB}/account/documents`).default;
const Collections = require(`${LIB}/account/collections`).default;
const docOps = require(`${LIB}/handler/_document-operations`);
const { patchOperation } = require(`${LIB}/handler/_patch-operations`);
const { parsePartitionKey } = require(`${LIB}/utils/get-partition-from-header`);

// ---------------------------------------------------------------------------------------------- arguments
function parseArgs(argv) {
  const opts = { port: 0, host: "127.0.0.1" };
  for (let i = 0; i < argv.length; i += 1) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (!["--pfx", "--passphrase", "--port", "--host", "--ru-per-second"].includes(name) || value === undefined) {
      usage(`bad argument ${name}`);
    }
    opts[name.slice(2)] = value;
    i += 1;
  }
  if (!opts.pfx) usage("--pfx is required");
  opts.port = Number(opts.port);
  opts["ru-per-second"] = Number(opts["ru-per-second"] || 0);
  if (!(opts["ru-per-second"] >= 0)) usage("bad --ru-per-second");
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) usage("bad --port");
  return opts;
}

function usage(problem) {
  process.stderr.write(`${problem}\nusage: node cosmos-server.js --pfx FILE [--passphrase P] [--port N] [--host H] [--ru-per-second N]\n`);
  process.exit(2);
}

// ------------------------------------------------------------------------------------ store-level patches
// The package builds its Account when the server starts listening and keeps it private; a subclass
// lets the wrapper reach the store.
let account;
const PackageAccount = accountModule.default;
accountModule.default = class extends PackageAccount {
  constructor(...args) {
    super(...args);
    account = this; // eslint-disable-line consistent-this
  }
};

// Fix 3: the package ignores the partition-key header on queries. The header is known only to the
// request, so it travels to the query engine through an AsyncLocalStorage scope.
const requestScope = new AsyncLocalStorage();
const packageQuery = Documents.prototype.query;
Documents.prototype.query = function query(params, options) {
  const scope = requestScope.getStore();
  if (!scope || !scope.partition) return packageQuery.call(this, params, options);
  const all = this._data;
  // query() is synchronous, so swapping the map in and out cannot interleave with another request.
  this._data = new Map([...all].filter(([, item]) => scope.partition.matches(this._getPartition(item.read()))));
  try {
    return packageQuery.call(this, params, options);
  } finally {
    this._data = all;
  }
};

// Fix 7: replacing a container (e.g. to change defaultTtl) builds a new, empty Collection object. Carry the
// documents and UDFs over so a replace changes settings only, as in Cosmos.
const packageReplace = Collections.prototype.replace;
Collections.prototype.replace = function replace(data, original) {
  const before = this._item("/id", original.id, original.id);
  const result = packageReplace.call(this, data, original);
  const after = this._item("/id", result.id, result.id);
  for (const part of ["documents", "userDefinedFunctions"]) {
    after[part] = before[part];
    after[part]._parent = after;
  }
  return result;
};

// A partition-key header value (`["pool-a"]`, `[{}]` for "none") as a predicate on a document's key value.
function partitionFromHeader(header) {
  if (!header) return null;
  let parsed;
  try {
    parsed = JSON.parse(header);
  } catch (e) {
    return null;
  }
  const value = Array.isArray(parsed) ? parsed[0] : parsed;
  const none = value !== null && typeof value === "object" && Object.keys(value).length === 0;
  return {
    matches: docValue => (none ? docValue === undefined : JSON.stringify(docValue) === JSON.stringify(value))
  };
}

// Fix 8: Cosmos never returns expired items. Deleting them before each request that touches the
// container keeps reads, queries, counts, creates and batches consistent with that. As in Cosmos, item
// `ttl` only counts while the container has TTL on (defaultTtl set: -1 = on, no default expiry).
function purgeExpired(collection) {
  const props = collection.read();
  if (!props || typeof props.defaultTtl !== "number") return;
  const docs = collection.documents;
  const now = Date.now() / 1000;
  for (const item of docs._data.values()) {
    const doc = item.read();
    const ttl = typeof doc.ttl === "number" ? doc.ttl : props.defaultTtl;
    if (ttl > 0 && doc._ts + ttl <= now) docs.delete(doc.id, docs._getPartition(doc));
  }
}

// Fix 6: the package lower-cases a "from c where ..." patch condition, which breaks case-sensitive
// property names and string literals. A full query is used verbatim (with @id bound to the document id).
function keepConditionCase(condition) {
  const m = typeof condition === "string" && /^\s*from\s+(\w+)\s+where\s+([\s\S]+)$/i.exec(condition);
  return m ? `SELECT * FROM ${m[1]} WHERE ${m[1]}.id = @id AND (${m[2]})` : condition;
}

// --------------------------------------------------------------------------------- transactional batch
// Fixes 5 and 10: operations of a transactional batch carry no partition key (it is in the header), and
// a failed atomic batch must leave nothing behind. Cosmos then answers 207 with the failing operation's
// status and 424 for every other one; the SDK reports the failing status as the batch status.
const batchHandlers = {
  Create: docOps.createOperation,
  Upsert: docOps.upsertOperation,
  Read: docOps.readOperation,
  Delete: docOps.deleteOperation,
  Replace: docOps.replaceOperation,
  Patch: (collection, op) =>
    patchOperation(collection, {
      id: op.id,
      partitionKey: op.partitionKey,
      ifMatch: op.ifMatch,
      operations: (op.resourceBody || {}).operations || [],
      condition: keepConditionCase((op.resourceBody || {}).condition)
    })
};

// The stored item an operation addresses, or undefined: an upsert over it is charged as a replace, a delete for
// its size.
function existing(collection, id, partitionHeader) {
  if (typeof id !== "string") return undefined;
  try {
    return collection.document(id, parsePartitionKey(partitionHeader, id)).read() || undefined;
  } catch (e) {
    return undefined;
  }
}

function operationCharge(collection, operationType, before, after) {
  const type = String(operationType).toLowerCase();
  if (type === "read") return readCharge(Buffer.byteLength(JSON.stringify(after || {})));
  const doc = type === "delete" ? before : after;
  const bytes = doc ? Buffer.byteLength(JSON.stringify(doc)) : 0;
  const indexed = doc ? indexedValues(collection, doc) : 0;
  return writeCharge(bytes, indexed, type === "replace" || type === "patch" || (type === "upsert" && !!before));
}

function runBatch(collection, headers, operations) {
  const atomic = isTrue(headers["x-ms-cosmos-batch-atomic"]);
  const continueOnError = isTrue(headers["x-ms-cosmos-batch-continue-on-error"]);
  if (!Array.isArray(operations)) return [400, cosmosError(400, "Invalid batch request body")];
  if (atomic && operations.length > 100) {
    return [400, cosmosError(400, "Batch request has more operations than what is supported.")];
  }
  const docs = collection.documents;
  const snapshot = atomic && { data: new Map(docs._data), index: new Map(docs._index), ridCount: docs._ridCount };
  let results = [];
  let failedAt = -1;
  operations.forEach((op, i) => {
    if (failedAt >= 0 && !continueOnError) {
      results.push({ statusCode: 424, requestCharge: 0 });
      return;
    }
    const handler = batchHandlers[op && op.operationType];
    if (!handler) {
      results.push({ statusCode: 400, requestCharge: 0 });
      if (failedAt < 0) failedAt = i;
      return;
    }
    const input = { ...op, partitionKey: op.partitionKey || headers["x-ms-documentdb-partitionkey"] };
    const refused = invalidId(op.id || (op.resourceBody && op.resourceBody.id));
    if (refused) {
      results.push({ statusCode: 400, requestCharge: 0, resourceBody: cosmosError(400, refused) });
      if (failedAt < 0) failedAt = i;
      return;
    }
    let outcome;
    let before;
    try {
      before = existing(collection, op.id || (op.resourceBody && op.resourceBody.id), input.partitionKey);
      outcome = handler(collection, input);
    } catch (err) {
      // e.g. an unparsable partition key: a failed operation, so an atomic batch still rolls back
      outcome = { statusCode: 400, body: cosmosError(400, err.message) };
    }
    const { statusCode, body } = outcome;
    if (statusCode >= 400) {
      if (failedAt < 0) failedAt = i;
      results.push({ statusCode, requestCharge: 1 });
    } else {
      const charge = operationCharge(collection, op.operationType, before, body);
      results.push({ statusCode, requestCharge: charge, eTag: body && body._etag, resourceBody: body });
    }
  });
  if (failedAt >= 0 && atomic) {
    docs._data = snapshot.data;
    docs._index = snapshot.index;
    docs._ridCount = snapshot.ridCount;
    results = results.map((r, i) => (i === failedAt ? r : { statusCode: 424, requestCharge: 0 }));
  }
  return [failedAt >= 0 ? 207 : 200, results];
}

// ---------------------------------------------------------------------------------------- query plans
// Fix 1: the Java SDK asks the gateway for a query plan first. One range covering everything and no
// client-side work is correct here: the server keeps a single range and evaluates ORDER BY, TOP and
// aggregates itself. hasSelectValue makes the SDK unwrap scalar rows of SELECT VALUE queries.
function queryPlan(query) {
  return {
    partitionedQueryExecutionInfoVersion: 2,
    queryInfo: {
      distinctType: "None",
      top: null,
      offset: null,
      limit: null,
      orderBy: [],
      orderByExpressions: [],
      groupByExpressions: [],
      groupByAliases: [],
      aggregates: [],
      groupByAliasToAggregateType: {},
      rewrittenQuery: "",
      hasSelectValue: /^\s*SELECT\s+(DISTINCT\s+)?(TOP\s+\S+\s+)?VALUE\b/i.test(query || ""),
      hasNonStreamingOrderBy: false
    },
    queryRanges: [{ min: "", max: "FF", isMinInclusive: true, isMaxInclusive: false }]
  };
}

// ------------------------------------------------------------------------------ request units (charging)
// Cosmos DB bills every request in request units (RU) and refuses requests beyond the container's provisioned
// RU/s. The package answers "1" for everything; this model charges as Azure documents it (Microsoft Learn,
// "Request Units in Azure Cosmos DB" and "Optimize request cost: reads and writes"):
//   - a point read costs 1 RU per KB of the item (1 KB: 1 RU; a missing item still costs 1 RU);
//   - a write costs about 5.5 RU per KB for an insert (a delete as much, for the item it removes), twice that for a
//     replace, an upsert over an existing item or a patch, plus 0.1 RU per indexed property value ("each indexed
//     path adds write RU": the default policy indexes every property, a narrow one only what queries filter on);
//   - a query costs by what it returns, 1 RU per KB (1,000 items of 1 KB: 1,000 RU; "the cost of a query is
//     proportional to the items it returns"), plus a base of 2.5 RU per page, which is what an empty query costs;
//   - metadata requests (account, container, partition-key ranges, query plans) run on a separate system budget
//     and are not charged here; refused requests cost nothing but the 1 RU Cosmos charges for a 404/409/412.
// With a provisioned rate (--ru-per-second, or POST /_test/throughput), a request arriving while the last second's
// budget is spent gets 429 with substatus 3200 and x-ms-retry-after-ms until the budget refills, as Cosmos does;
// a request admitted while budget remained is served whole even if it overdraws the budget ("request rate too
// large" is judged when the request arrives).
const KB = 1024;

function readCharge(bytes) {
  return Math.max(1, Math.ceil(bytes / KB));
}

function writeCharge(bytes, indexedValues, isReplace) {
  const insert = 5.5 * Math.max(1, bytes / KB) + 0.1 * indexedValues;
  return round2(isReplace ? 2 * insert : insert);
}

function queryCharge(items) {
  return round2(2.5 + items.reduce((n, item) => n + Buffer.byteLength(JSON.stringify(item)), 0) / KB);
}

function round2(n) {
  return Math.round(n * 100) / 100;
}

// The scalar values of a document as index paths ("/Type/?", "/Tags/[]/?"), for counting what the
// container's indexing policy indexes. System properties other than _ts are never indexed.
function leafPaths(value, prefix, out) {
  if (Array.isArray(value)) {
    for (const v of value) leafPaths(v, `${prefix}/[]`, out);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (prefix === "" && k.startsWith("_") && k !== "_ts") continue;
      leafPaths(v, `${prefix}/${k}`, out);
    }
  } else {
    out.push(`${prefix}/?`);
  }
  return out;
}

// Cosmos resolves included and excluded paths by precedence: the most specific (longest) matching path wins.
function pathMatch(pattern, leaf) {
  if (pattern.endsWith("/*")) {
    const base = pattern.slice(0, -2);
    return leaf === `${base}/?` || leaf.startsWith(`${base}/`) || base === "";
  }
  return pattern === leaf;
}

function indexedValues(collection, doc) {
  const policy = (collection.read() || {}).indexingPolicy;
  if (!policy || policy.indexingMode === "none") return policy ? 0 : leafPaths(doc, "", []).length;
  const include = (policy.includedPaths || [{ path: "/*" }]).map(p => p.path);
  const exclude = (policy.excludedPaths || []).map(p => p.path);
  let count = 0;
  for (const leaf of leafPaths(doc, "", [])) {
    const inc = include.filter(p => pathMatch(p, leaf)).reduce((m, p) => Math.max(m, p.length), -1);
    const exc = exclude.filter(p => pathMatch(p, leaf)).reduce((m, p) => Math.max(m, p.length), -1);
    if (inc > exc) count += 1;
  }
  return count;
}

let ruPerSecond = 0; // 0: no provisioned limit
let budget = 0;
let budgetAt = Date.now();

function refill() {
  const now = Date.now();
  budget = Math.min(ruPerSecond, budget + (ruPerSecond * (now - budgetAt)) / 1000);
  budgetAt = now;
}

// Milliseconds until a request may be admitted, or 0 when it may be now.
function admit() {
  if (!ruPerSecond) return 0;
  refill();
  return budget > 0 ? 0 : Math.max(1, Math.ceil((-budget * 1000) / ruPerSecond) + 1);
}

// typeOf: the document Type the charge was for ("jobs", "scalerstate", ...; "?" when the answer names none).
function spend(charge, kind, typeOf) {
  const second = Math.floor(Date.now() / 1000);
  if (second !== chargedSecond.second) {
    chargedSecond.second = second;
    chargedSecond.charge = 0;
  }
  chargedSecond.charge = round2(chargedSecond.charge + charge);
  stats.busiestSecondCharge = Math.max(stats.busiestSecondCharge, chargedSecond.charge);
  stats.requestCharge = round2(stats.requestCharge + charge);
  stats.chargeByKind[kind] = round2(stats.chargeByKind[kind] + charge);
  const type = `${kind}:${typeOf || "?"}`;
  stats.chargeByType[type] = round2((stats.chargeByType[type] || 0) + charge);
  if (ruPerSecond) {
    refill();
    budget -= charge;
  }
}

function setThroughput(rate) {
  if (!(Number.isFinite(rate) && rate >= 0)) throw new Error("ruPerSecond must be a number >= 0 (0 = unlimited)");
  ruPerSecond = rate;
  budget = rate;
  budgetAt = Date.now();
}

// The account's settings as "Get Database Account" (GET /, REST API) reports them, which `check` reads: its write
// regions, whether it accepts writes in several (enableMultipleWriteLocations) and its default consistency
// (userConsistencyPolicy.defaultConsistencyLevel). A test sets them to what a real account may be set to; the
// package's own values (one region, Session) are the reset.
const LEVELS = ["Strong", "BoundedStaleness", "Session", "ConsistentPrefix", "Eventual"];
function setAccount({ writeRegions, multipleWriteLocations, defaultConsistencyLevel }) {
  const data = account.read();
  if (writeRegions !== undefined) {
    if (!Array.isArray(writeRegions) || writeRegions.length === 0) throw new Error("writeRegions: a list of names");
    data.writableLocations = writeRegions.map((name) => ({ name, databaseAccountEndpoint: data.writableLocations[0].databaseAccountEndpoint }));
  }
  if (multipleWriteLocations !== undefined) data.enableMultipleWriteLocations = Boolean(multipleWriteLocations);
  if (defaultConsistencyLevel !== undefined) {
    if (!LEVELS.includes(defaultConsistencyLevel)) throw new Error(`defaultConsistencyLevel: one of ${LEVELS}`);
    data.userConsistencyPolicy = { defaultConsistencyLevel };
  }
  return {
    writeRegions: data.writableLocations.map((l) => l.name),
    multipleWriteLocations: data.enableMultipleWriteLocations,
    defaultConsistencyLevel: data.userConsistencyPolicy.defaultConsistencyLevel
  };
}

// ----------------------------------------------------------------------------------------- id validation
// Cosmos refuses ids with "/" or "\" and ids over 1,023 bytes (Microsoft Learn, "Service quotas": "Maximum
// length of id: 1,023 bytes"; "id … cannot contain '/' or '\\'"). In gateway mode, an id containing "%" can be
// created but every request naming it in the URL (read, replace, patch, delete) fails with 401: the gateway
// signs the decoded path (azure-sdk-for-java, sdk/cosmos CosmosItemIdEncodingTest, gateway cases with "%").
function invalidId(id) {
  if (typeof id !== "string" || id.length === 0) return null;
  if (/[/\\]/.test(id) || Buffer.byteLength(id) > 1023) {
    return `The input name '${id.length > 64 ? `${id.slice(0, 64)}...` : id}' is invalid. Ensure to provide a ` +
      "unique non-empty string less than '1024' characters. Ensure to not use '/', '\\\\', '?', '#' characters.";
  }
  return null;
}

const UNAUTHORIZED_PERCENT =
  "The input authorization token can't serve the request. The wrong key is being used or the expected payload " +
  "is not built as per the protocol.";

// ------------------------------------------------------------------------------ faults and statistics
const ERROR_CODES = {
  400: "BadRequest", 403: "Forbidden", 404: "NotFound", 408: "RequestTimeout", 409: "Conflict", 410: "Gone",
  412: "PreconditionFailed", 413: "RequestEntityTooLarge", 429: "TooManyRequests", 449: "RetryWith",
  500: "InternalServerError", 503: "ServiceUnavailable"
};
const DEFAULT_SUBSTATUS = { 429: 3200 }; // 3200: request rate too large (RU budget exhausted)

function cosmosError(status, message) {
  return { code: ERROR_CODES[status] || String(status), message: `Message: ${JSON.stringify({ Errors: [message] })}` };
}

const KINDS = ["read", "query", "upsert", "replace", "patch", "create", "delete", "batch", "queryplan", "other"];
let stats;
let chargedSecond;
function resetStats() {
  stats = {
    requests: 0, requestBytes: 0, responseBytes: 0, requestHeaderBytes: 0, responseHeaderBytes: 0, byKind: {},
    requestCharge: 0, chargeByKind: {}, chargeByType: {}, throttled: 0,
    // The most charged in one second of the clock since the reset: what a provisioned rate must cover.
    busiestSecondCharge: 0
  };
  chargedSecond = { second: 0, charge: 0 };
  for (const k of KINDS) {
    stats.byKind[k] = 0;
    stats.chargeByKind[k] = 0;
  }
}
resetStats();

let faults = []; // each: { match, action, remaining (Infinity = until cleared) }
let down = false;
const hung = new Set();

function classify(req, path) {
  const h = req.headers;
  if (isTrue(h["x-ms-cosmos-is-query-plan-request"])) return "queryplan";
  const docPath = /\/colls\/[^/]+\/docs(\/([^/]+))?\/?$/.exec(path);
  if (!docPath) return "other";
  switch (req.method) {
    case "GET":
      return docPath[2] ? "read" : "query";
    case "PUT":
      return "replace";
    case "PATCH":
      return "patch";
    case "DELETE":
      return "delete";
    case "POST":
      if (isTrue(h["x-ms-documentdb-isquery"]) || h["content-type"] === "application/query+json") return "query";
      if (isTrue(h["x-ms-cosmos-is-batch-request"])) return "batch";
      if (isTrue(h["x-ms-documentdb-is-upsert"])) return "upsert";
      return "create";
    default:
      return "other";
  }
}

function takeFault(req, path, kind) {
  const fault = faults.find(
    f =>
      (!f.methods || f.methods.includes(req.method)) &&
      (!f.pathContains || path.includes(f.pathContains)) &&
      (f.path === undefined || path === f.path) &&
      (!f.kinds || f.kinds.includes(kind))
  );
  if (!fault) return null;
  fault.remaining -= 1;
  if (fault.remaining <= 0) faults = faults.filter(f => f !== fault);
  return fault;
}

function addFault(spec) {
  if (spec.down === true) {
    down = true;
    return null;
  }
  const count = spec.count === undefined ? Infinity : Number(spec.count);
  if (!(count > 0)) throw new Error("count must be a positive number (omit it for 'until cleared')");
  const actions = ["status", "hang", "delayMs"].filter(a => spec[a] !== undefined);
  if (actions.length !== 1) throw new Error("give exactly one of status, hang, delayMs or down");
  if (spec.status !== undefined && !(spec.status >= 400 && spec.status <= 599)) throw new Error("bad status");
  const fault = { ...spec, remaining: count };
  faults.push(fault);
  return fault;
}

function clearFaults() {
  const released = hung.size;
  for (const res of hung) res.socket && res.socket.destroy();
  hung.clear();
  faults = [];
  down = false;
  return released;
}

function describeFaults() {
  return {
    down,
    hung: hung.size,
    faults: faults.map(f => ({ ...f, remaining: f.remaining === Infinity ? null : f.remaining }))
  };
}

async function control(req, res, path) {
  const body = await readBody(req);
  const key = `${req.method} ${path.replace(/\/+$/, "")}`;
  try {
    switch (key) {
      case "POST /_test/faults":
        addFault(JSON.parse(body.toString() || "{}"));
        return reply(res, 200, describeFaults());
      case "GET /_test/faults":
        return reply(res, 200, describeFaults());
      case "DELETE /_test/faults":
        return reply(res, 200, { released: clearFaults() });
      case "GET /_test/stats":
        return reply(res, 200, stats);
      case "DELETE /_test/stats":
        resetStats();
        return reply(res, 200, stats);
      case "POST /_test/throughput":
        setThroughput(Number(JSON.parse(body.toString() || "{}").ruPerSecond));
        return reply(res, 200, { ruPerSecond });
      case "GET /_test/throughput":
        return reply(res, 200, { ruPerSecond });
      case "POST /_test/account":
        return reply(res, 200, setAccount(JSON.parse(body.toString() || "{}")));
      default:
        return reply(res, 404, { message: `no control endpoint ${key}` });
    }
  } catch (err) {
    return reply(res, 400, { message: err.message });
  }
}

// ---------------------------------------------------------------------------------------- the wrapper
function isTrue(value) {
  return String(Array.isArray(value) ? value[0] : value).toLowerCase() === "true";
}

function parseJson(body) {
  try {
    return JSON.parse(body.toString() || "{}");
  } catch (e) {
    throw Object.assign(new Error(`invalid JSON body: ${e.message}`), { status: 400 });
  }
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", c => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function reply(res, status, body, headers = {}) {
  res.statusCode = status;
  res.setHeader("content-type", "application/json");
  res.setHeader("x-ms-activity-id", randomUUID());
  res.setHeader("x-ms-request-charge", status < 400 ? "1" : "0");
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, String(value));
  res.end(body === undefined ? "" : JSON.stringify(body));
}

// The package's listener reads the body itself, so a request whose body we have read (or rewritten) is
// handed over as a fresh stream carrying the same method, URL and headers.
function replay(req, body, headers) {
  const copy = Readable.from(body.length ? [body] : [], { objectMode: false });
  copy.method = req.method;
  copy.url = req.url;
  copy.headers = headers;
  copy.httpVersion = req.httpVersion;
  copy.socket = req.socket;
  return copy;
}

function countResponse(req, res) {
  const { write, end } = res;
  const add = chunk => {
    if (chunk && typeof chunk !== "function") stats.responseBytes += Buffer.byteLength(chunk);
  };
  res.write = (chunk, ...rest) => (add(chunk), write.call(res, chunk, ...rest));
  res.end = (chunk, ...rest) => (add(chunk), end.call(res, chunk, ...rest));
  res.on("finish", () => {
    // res._header is Node's serialised status line and headers: the header bytes actually sent.
    stats.responseHeaderBytes += res._header ? Buffer.byteLength(res._header) : 0;
  });
  stats.requestHeaderBytes +=
    `${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`.length +
    req.rawHeaders.reduce((n, s) => n + Buffer.byteLength(s) + 2, 0) + 2; // "name: value\r\n" ... "\r\n"
}

// Metadata requests run on the account's system budget: they answer a charge of 0 (the package says 1).
function freeOfCharge(res) {
  const { setHeader } = res;
  res.setHeader = (name, value) =>
    setHeader.call(res, name, String(name).toLowerCase() === "x-ms-request-charge" ? "0" : value);
}

// The request is carried out, then answered with the fault's status: a write that committed although its
// client saw a timeout or a 503 (the case the notes' "Retries" section describes, where a retried conditional write
// meets 412 on its own earlier write).
function failAfterCommit(res, fault) {
  const { end } = res;
  res.end = () => {
    const status = Number(fault.status);
    res.statusCode = status;
    if (fault.substatus !== undefined) res.setHeader("x-ms-substatus", fault.substatus);
    res.removeHeader("etag");
    return end.call(res, JSON.stringify(cosmosError(status, fault.message || `Injected fault after commit: ${status}`)));
  };
}

// Sets the response's x-ms-request-charge from what it carries, as it is sent, and spends it from the budget. A
// transactional batch names its own total (the sum of its operations' charges).
function chargeResponse(res, kind, collection, requestBody, before) {
  const { end, setHeader } = res;
  let explicit = null;
  let batchTypes;
  if (kind === "batch") {
    try {
      batchTypes = [...new Set(JSON.parse(requestBody).map(op => op.resourceBody && op.resourceBody.Type))].join("+");
    } catch (e) {
      batchTypes = undefined;
    }
  }
  res.setHeader = (name, value) => {
    if (String(name).toLowerCase() === "x-ms-request-charge") explicit = value;
    return setHeader.call(res, name, value);
  };
  res.end = (chunk, ...rest) => {
    let charge;
    const status = res.statusCode;
    let typeOf;
    if (status === 429) {
      charge = 0;
    } else if (status >= 400) {
      charge = 1;
    } else if (kind === "read") {
      charge = status === 304 ? 1 : readCharge(chunk ? Buffer.byteLength(chunk) : 0);
      try {
        typeOf = JSON.parse(String(chunk)).Type;
      } catch (e) {
        typeOf = undefined;
      }
    } else if (kind === "query") {
      let items = [];
      try {
        items = JSON.parse(String(chunk)).Documents || [];
      } catch (e) {
        items = [];
      }
      charge = queryCharge(items);
      typeOf = [...new Set(items.map(item => item && item.Type))].join("+");
    } else if (kind === "batch") {
      charge = Number(explicit || 0);
      typeOf = batchTypes;
    } else {
      let written;
      try {
        written = kind === "delete" ? before : JSON.parse(kind === "patch" && chunk ? String(chunk) : requestBody);
      } catch (e) {
        written = undefined;
      }
      const bytes = written ? Buffer.byteLength(JSON.stringify(written)) : 0;
      const replace = kind === "replace" || kind === "patch" || (kind === "upsert" && !!before);
      charge = writeCharge(bytes, written && collection ? indexedValues(collection, written) : 0, replace);
      typeOf = written && written.Type;
    }
    spend(charge, kind, typeOf);
    if (!res.headersSent) setHeader.call(res, "x-ms-request-charge", String(charge));
    return end.call(res, chunk, ...rest);
  };
}

function makeHandler(packageListener) {
  return async function handle(req, res) {
    const path = decodeURIComponent(new URL(req.url, "https://x").pathname).replace(/^\/\//, "/");
    if (path.startsWith("/_test/")) return control(req, res, path);

    const kind = classify(req, path);
    stats.requests += 1;
    stats.byKind[kind] += 1;
    if (down) return req.socket.destroy();
    countResponse(req, res);

    const fault = takeFault(req, path, kind);
    let body = await readBody(req);
    stats.requestBytes += body.length;
    if (fault && fault.hang) {
      hung.add(res);
      res.on("close", () => hung.delete(res));
      return undefined;
    }
    if (fault && fault.status && fault.afterCommit) {
      failAfterCommit(res, fault);
    } else if (fault && fault.status) {
      const status = Number(fault.status);
      const headers = {};
      const substatus = fault.substatus !== undefined ? fault.substatus : DEFAULT_SUBSTATUS[status];
      if (substatus !== undefined) headers["x-ms-substatus"] = substatus;
      if (fault.retryAfterMs !== undefined || status === 429) headers["x-ms-retry-after-ms"] = fault.retryAfterMs || 100;
      const message = fault.message || `Injected fault: ${status}`;
      return reply(res, status, cosmosError(status, message), headers);
    }
    if (fault && fault.delayMs) await new Promise(r => setTimeout(r, Number(fault.delayMs)));

    const headers = { ...req.headers };
    const m = /^\/dbs\/([^/]+)\/colls\/([^/]+)(?:\/docs(?:\/([^/]+))?)?\/?$/.exec(path);
    const collection = m && account.database(m[1]).collection(m[2]);
    if (collection && collection.read()) purgeExpired(collection);
    const onDocs = m && /\/docs(\/|$)/.test(path);
    let scope = {};
    // Cosmos names the parent of every resource in this header; the SDK builds a container's "alt link"
    // from it, and its change-feed code fails with a NullPointerException (before sending) without it.
    const segments = new URL(req.url, "https://x").pathname.split("/").filter(Boolean);
    const parent = segments.slice(0, segments.length % 2 ? -1 : -2).join("/");
    if (parent) res.setHeader("x-ms-alt-content-path", parent);

    if (kind === "queryplan") {
      return reply(res, 200, queryPlan(parseJson(body).query), { "x-ms-request-charge": 0 });
    }
    const charged = onDocs && kind !== "other";
    if (charged) {
      const wait = admit();
      if (wait) {
        stats.throttled += 1;
        return reply(res, 429, cosmosError(429, "Request rate is large. More Request Units may be needed, so no " +
          "changes were made. Please retry this request later."), {
          "x-ms-retry-after-ms": wait, "x-ms-substatus": 3200, "x-ms-request-charge": 0
        });
      }
      const urlId = m[3];
      if (urlId !== undefined && urlId.includes("%")) {
        spend(0, kind, undefined);
        return reply(res, 401, { code: "Unauthorized", message: UNAUTHORIZED_PERCENT }, { "x-ms-request-charge": 0 });
      }
      const bodyId = ["create", "upsert", "replace"].includes(kind) ? parseJson(body).id : undefined;
      const refused = invalidId(urlId) || invalidId(bodyId);
      if (refused) {
        return reply(res, 400, cosmosError(400, refused), { "x-ms-request-charge": 0 });
      }
      chargeResponse(res, kind, collection, body, existing(collection, urlId || bodyId,
        headers["x-ms-documentdb-partitionkey"]));
    } else {
      freeOfCharge(res);
    }
    // Fix 9: the package has no change feed (it answers a fixed ETag and then 304 forever). Fail loudly.
    // pkranges also use A-IM, for the SDK's routing map, and keep working.
    if (onDocs && headers["a-im"]) {
      return reply(res, 400, cosmosError(400, "The change feed is not supported by the local test server."));
    }
    if (kind === "query") {
      // Fix 2: without this header the package rejects queries that do not name the partition key.
      headers["x-ms-documentdb-query-enablecrosspartition"] = "true";
      scope = { partition: partitionFromHeader(headers["x-ms-documentdb-partitionkey"]) };
    }
    if (kind === "read" && collection && collection.read()) {
      // Fix 4: the package throws a TypeError (500) for a missing document.
      let doc;
      try {
        doc = collection.document(m[3], parsePartitionKey(headers["x-ms-documentdb-partitionkey"], m[3])).read();
      } catch (e) {
        doc = undefined;
      }
      if (!doc) return reply(res, 404, cosmosError(404, "Entity with the specified id does not exist in the system."));
      if (headers["if-none-match"] && headers["if-none-match"] === doc._etag) {
        return reply(res, 304, undefined, { etag: doc._etag });
      }
    }
    if (kind === "batch" && collection && collection.read()) {
      const [status, results] = runBatch(collection, headers, parseJson(body));
      const total = Array.isArray(results) ? round2(results.reduce((n, r) => n + (r.requestCharge || 0), 0)) : 0;
      return reply(res, status, results, { "x-ms-request-charge": total });
    }
    if (kind === "patch") {
      const patch = parseJson(body);
      if (patch && !Array.isArray(patch) && patch.condition) {
        patch.condition = keepConditionCase(patch.condition);
        body = Buffer.from(JSON.stringify(patch));
        headers["content-length"] = String(body.length);
      }
      // the condition query must only see the document's own partition
      scope = { partition: partitionFromHeader(headers["x-ms-documentdb-partitionkey"]) };
    }
    return requestScope.run(scope, () => packageListener(replay(req, body, headers), res));
  };
}

// -------------------------------------------------------------------------------------------- startup
function main() {
  const opts = parseArgs(process.argv.slice(2));
  const server = createHttpsServer({
    pfx: fs.readFileSync(opts.pfx),
    passphrase: opts.passphrase,
    cert: undefined, // the package's own certificate expired in 2021 and names no host
    key: undefined,
    minVersion: "TLSv1.2",
    keepAlive: true // otherwise every response says "connection: close" and each request pays a TLS handshake
  });
  const [packageListener] = server.listeners("request");
  server.removeAllListeners("request");
  const handle = makeHandler(packageListener);
  server.on("request", (req, res) => {
    handle(req, res).catch(err => {
      if (!err.status) process.stderr.write(`cosmos-server: ${err.stack || err}\n`);
      if (!res.headersSent) reply(res, err.status || 500, cosmosError(err.status || 500, String(err.message)));
      else res.destroy();
    });
  });
  // The SDK keeps pooled connections idle for up to a minute; Node's 5 s default would close them under
  // it and turn the next write into a spurious 503. A hung request must also never be timed out here.
  server.keepAliveTimeout = 10 * 60 * 1000;
  server.headersTimeout = server.keepAliveTimeout + 1000;
  server.requestTimeout = 0;

  const sockets = new Set();
  server.on("connection", socket => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const stop = () => {
    server.close();
    for (const s of sockets) s.destroy();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.stdin.on("end", stop);
  process.stdin.on("close", stop);
  process.stdin.on("error", stop);
  process.stdin.resume();

  setThroughput(opts["ru-per-second"]);
  server.listen(opts.port, opts.host, () => {
    process.stdout.write(`cosmos-server listening on https://${opts.host}:${server.address().port}\n`);
  });
}

main();
