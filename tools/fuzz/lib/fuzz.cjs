'use strict';
// Running fuzz cases against a live stack and judging the answers (shared by `npm run fuzz` and the e2e test):
// tenant set-up, the oracle of CONTRACT.md §1/§2/§7, the concurrent executor with its tallies, a greedy shrinker for
// reproductions, the readiness check and the scan of the services' logs for the tenants' secrets.
const fs = require('node:fs');
const { createTenantWithSandboxChannel } = require('../../dev/lib/platform.cjs');
const { signCloudApi } = require('./cases.cjs');

const PROBLEMS = 'https://parley.dev/problems/';
/** Stack frames, SQL errors and connection internals: none of it may reach a client. */
const INTERNALS = /\n\s+at \S|\bat [\w$.<>]+ \((?:\/|node:)|QueryFailedError|syntax error at or near|relation "[^"]*" does not exist|violates (?:unique|foreign key|not-null|check) constraint|node_modules\//;
const TIMEOUT_MS = 30_000;

/** An HTTP call: `{status, headers, text}` (headers lower-cased). */
async function send(baseUrl, c, timeoutMs = TIMEOUT_MS) {
  const res = await fetch(`${baseUrl}${c.path}`, { method: c.method, headers: c.headers, body: c.body, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, headers: Object.fromEntries(res.headers), text };
}

async function json(baseUrl, method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await send(baseUrl, { method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status >= 400) throw new Error(`${method} ${path} answered ${res.status}: ${res.text.slice(0, 300)}`);
  return res.text ? JSON.parse(res.text) : undefined;
}

/**
 * A tenant with everything fuzzing needs: enterprise plan (no daily quota), an access token, a webhook endpoint (to an
 * unreachable local port), a second API key (its id is fuzzed into paths, so a fuzzed DELETE never revokes the key the
 * run authenticates with), and its sandbox channel. `secrets` are what must never show up in logs.
 */
async function createTenant(baseUrl, adminToken, name) {
  const { account, webhook, channels } = await createTenantWithSandboxChannel(baseUrl, {
    name,
    plan: 'enterprise',
    adminToken,
    webhook: { url: 'http://127.0.0.1:9/fuzz', description: 'fuzz target' },
  });
  const token = await json(baseUrl, 'POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: account.client_id, client_secret: account.client_secret } });
  const spareKey = await json(baseUrl, 'POST', '/api/v1/api-keys', { token: account.api_key, body: { name: 'spare' } });
  return {
    tenantId: account.tenant_id,
    clientId: account.client_id,
    apiKey: account.api_key,
    accessToken: token.access_token,
    phoneNumberIds: channels.map((c) => c.phone_number_id).filter(Boolean),
    ids: [account.tenant_id, webhook.id, spareKey.id, ...channels.map((c) => c.id)],
    secrets: { api_key: account.api_key, spare_api_key: spareKey.api_key, client_secret: account.client_secret, access_token: token.access_token, webhook_secret: webhook.secret },
  };
}

/** Authorization values to fuzz with: both tenants' credentials, the admin token, and broken ones. */
function credentialsOf(tenants, adminToken) {
  const [a] = tenants;
  return [
    ...tenants.flatMap((t) => [`Bearer ${t.apiKey}`, `Bearer ${t.accessToken}`]),
    `Bearer ${adminToken}`,
    'Bearer ',
    `Bearer ${a.accessToken.split('.').slice(0, 2).join('.')}.`,
    `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${a.accessToken.split('.')[1]}.`,
    `Basic ${Buffer.from(`${a.clientId}:wrong`).toString('base64')}`,
    `bearer ${a.apiKey}`,
  ];
}

function isTokenRoute(c) {
  return c.method === 'POST' && c.path.split('?')[0].replace(/\/+$/, '') === '/oauth/token';
}

/** What is wrong with one answer (null when it is fine). */
function violation(c, res, forbidden = []) {
  if (res.status >= 500) return `status ${res.status}`;
  if (INTERNALS.test(res.text)) return 'internals (stack trace, SQL or connection error) in the answer';
  const leaked = forbidden.find((s) => res.text.includes(s.value));
  if (leaked) return `the answer contains ${leaked.name}`;
  // Whatever the body holds (JSON or not, in any content type): the signature is what counts.
  if (c.signed && res.status !== 200) return `a validly signed notification answered ${res.status} (CONTRACT §7: always 200)`;
  if (res.status < 400) return null;
  // A delivery attempt's own error (ECONNREFUSED to a dead receiver) is data in a 200; in an error it is an internal.
  if (/ECONNREFUSED|ETIMEDOUT|ENOTFOUND/.test(res.text)) return 'connection error of the service in the answer';
  let body;
  try {
    body = JSON.parse(res.text);
  } catch {
    return `status ${res.status} with a body that is not JSON`;
  }
  if (isTokenRoute(c)) return typeof body.error === 'string' && typeof body.error_description === 'string' ? null : 'token error not in the OAuth shape';
  if (!String(res.headers['content-type']).startsWith('application/problem+json')) return `status ${res.status} without problem+json`;
  if (body.status !== res.status || typeof body.type !== 'string' || typeof body.title !== 'string') return 'problem without its status, type or title';
  if (body.request_id === undefined || body.request_id !== res.headers['x-request-id']) return 'problem without the request id';
  return null;
}

function isJson(text) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `batches` (arrays of cases) with `concurrency` requests in flight. Resolves the tallies:
 * `{total, byRoute: {route: {cases, statuses}}, statuses, failures: [{case, status, problem, body}]}`. `onNoAnswer` is
 * awaited after a request got no answer at all (to wait for a restarted service).
 */
async function runCases(baseUrl, batches, { concurrency = 16, forbidden = [], signal, onProgress, onNoAnswer } = {}) {
  const tally = { total: 0, byRoute: {}, statuses: {}, failures: [] };
  for (const batch of batches) {
    let next = 0;
    const worker = async () => {
      while (next < batch.length && !signal?.aborted) {
        const c = batch[next++];
        let res;
        try {
          res = await send(baseUrl, c);
        } catch (err) {
          res = { status: 0, headers: {}, text: `no answer: ${err?.cause?.code ?? err?.name ?? err}` };
        }
        const problem = res.status === 0 ? res.text : violation(c, res, forbidden);
        const route = (tally.byRoute[c.route] ??= { cases: 0, statuses: {} });
        route.cases++;
        route.statuses[res.status] = (route.statuses[res.status] ?? 0) + 1;
        tally.statuses[res.status] = (tally.statuses[res.status] ?? 0) + 1;
        tally.total++;
        if (problem) tally.failures.push({ case: c, status: res.status, problem, body: res.text.slice(0, 500) });
        onProgress?.(tally);
        // A crashed (and restarting) service: the failure is recorded; wait for it instead of failing every case after.
        if (res.status === 0) await onNoAnswer?.();
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    if (signal?.aborted) break;
  }
  return tally;
}

/** The failures grouped by route and kind of problem, first occurrence of each. */
function distinctFailures(failures) {
  const groups = new Map();
  for (const f of failures) {
    // Requests that got no answer at all share one cause (a service down), whatever their route.
    const key = f.status === 0 ? 'no answer' : `${f.case.route}|${f.problem.replace(/\d+/g, 'N')}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { ...f, count: 1 });
  }
  return [...groups.values()];
}

/**
 * A smaller request that still fails the same way: greedily drops object keys and array elements (and halves long
 * strings) of the JSON body, re-signing provider notifications, within `budget` requests.
 */
async function shrink(baseUrl, failure, { appSecret, forbidden = [], budget = 60 } = {}) {
  const fails = async (c) => {
    try {
      const res = await send(baseUrl, c);
      const problem = violation(c, res, forbidden);
      return problem && problem.replace(/\d+/g, 'N') === failure.problem.replace(/\d+/g, 'N') ? res : null;
    } catch {
      return null;
    }
  };
  if (failure.status === 0) return { case: failure.case, status: 0, body: failure.body };
  let best = failure.case;
  let bestRes = { status: failure.status, text: failure.body };
  if (best.body === undefined || !isJson(best.body)) return { case: best, status: bestRes.status, body: bestRes.text };
  const withBody = (value) => {
    const body = JSON.stringify(value);
    const headers = best.signed ? { ...best.headers, 'x-hub-signature-256': signCloudApi(body, appSecret) } : best.headers;
    return { ...best, headers, body };
  };
  let spent = 0;
  let progress = true;
  while (progress && spent < budget) {
    progress = false;
    for (const candidate of smaller(JSON.parse(best.body))) {
      if (spent++ >= budget) break;
      const c = withBody(candidate);
      const res = await fails(c);
      if (res) {
        best = c;
        bestRes = res;
        progress = true;
        break;
      }
    }
  }
  return { case: best, status: bestRes.status, body: bestRes.text.slice(0, 500) };
}

/** Documents one step smaller than `value`: one key or element removed, or a long array or string halved, at any depth. */
function* smaller(value) {
  if (Array.isArray(value)) {
    if (value.length > 1) yield value.slice(0, Math.ceil(value.length / 2));
    for (let i = 0; i < value.length && i < 20; i++) yield value.filter((_, j) => j !== i);
    for (let i = 0; i < value.length && i < 20; i++) for (const v of smaller(value[i])) yield value.map((x, j) => (j === i ? v : x));
  } else if (value && typeof value === 'object') {
    for (const k of Object.keys(value)) {
      const rest = { ...value };
      delete rest[k];
      yield rest;
    }
    for (const k of Object.keys(value)) for (const v of smaller(value[k])) yield { ...value, [k]: v };
  } else if (typeof value === 'string' && value.length > 16) {
    yield value.slice(0, Math.ceil(value.length / 2));
  }
}

/** Every service's `GET /health/ready`: `{app: status}`. */
async function readiness(urls) {
  const entries = await Promise.all(
    Object.entries(urls).map(async ([app, url]) => {
      try {
        const res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(5000) });
        return [app, res.status];
      } catch (err) {
        return [app, err?.cause?.code ?? 'no answer'];
      }
    }),
  );
  return Object.fromEntries(entries);
}

/** Resolves once `url`'s `GET /health/ready` answers 200 (false after `timeoutMs`). */
async function untilReady(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await readiness({ url })).url === 200) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/** Secrets found in log files: `[{file, secret, line}]` (the line with the secret masked). */
function scanLogs(files, secrets) {
  const found = [];
  for (const file of files) {
    if (!fs.existsSync(file)) continue;
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    for (const { name, value } of secrets) {
      const line = lines.find((l) => l.includes(value));
      if (line) found.push({ file, secret: name, line: line.split(value).join(`<${name}>`).slice(0, 300) });
    }
  }
  return found;
}

/** The tenants' secrets as `{name, value}` (value at least 8 characters, so a scan cannot match by accident). */
function secretsOf(tenants) {
  return tenants.flatMap((t, i) => Object.entries(t.secrets).map(([name, value]) => ({ name: `tenant ${i + 1} ${name}`, value }))).filter((s) => s.value && s.value.length >= 8);
}

/** The request as a curl command line (body via a here-string when present). */
function curl(baseUrl, c) {
  const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
  const headers = Object.entries(c.headers).map(([k, v]) => `-H ${quote(`${k}: ${v}`)}`);
  const body = c.body === undefined ? [] : [`--data-binary ${quote(c.body.length > 2000 ? `${c.body.slice(0, 2000)}…(${c.body.length} bytes)` : c.body)}`];
  const url = `${baseUrl}${c.path}`;
  return ['curl', '-sS', '-X', c.method, ...headers, ...body, quote(url.length > 1000 ? `${url.slice(0, 1000)}…` : url)].join(' ');
}

module.exports = { PROBLEMS, createTenant, credentialsOf, violation, runCases, distinctFailures, shrink, readiness, untilReady, scanLogs, secretsOf, curl, send };
