'use strict';
// The fuzz cases of `npm run fuzz` and of apps/platform-e2e/src/fuzz.e2e-spec.ts: fast-check arbitraries of HTTP
// requests built from the running gateway's own OpenAPI document (so a new route is fuzzed without touching this file),
// and of validly signed WhatsApp Cloud API notifications mutated in the ways a provider (or an attacker holding the app
// secret) could send them. Plain CommonJS, like tools/dev/lib/stack.cjs, so the ESM runner and jest both load it.
const fc = require('fast-check');
const { cloudApiSignature } = require('../../dev/lib/platform.cjs');

/** Strings that break naive code: control characters, lone surrogates, bidi overrides, combining storms, SQL and templates. */
const EDGE_STRINGS = Object.freeze([
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF\uD800',
  '\u202Eevil\u202C',
  '\u200B\u200C\u200D\uFEFF',
  '\u2028\u2029',
  'e\u0301'.repeat(500),
  '👩‍👩‍👧‍👦'.repeat(50),
  'İıß\u0130ﬃ',
  'ｆｕｌｌｗｉｄｔｈ',
  '\r\n\r\nX-Injected: 1',
  "' OR '1'='1' --",
  "'; DROP TABLE messages; --",
  '%',
  '_',
  '\\',
  '"',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '%00',
  '-1',
  '0',
  '1e309',
  'NaN',
  'null',
  'true',
  '9'.repeat(40),
  '+00000000000000000000',
]);

const edgeString = fc.constantFrom(...EDGE_STRINGS);
const anyString = fc.oneof(
  { weight: 3, arbitrary: edgeString },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
);
/** A JSON value of any type, for "wrong type" mutations. */
const anyJson = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53 + 1, -1e308, [], {}, [null], { '': null }),
  anyString,
  fc.jsonValue({ maxDepth: 2 }),
);

// ---------------------------------------------------------------------------------------------------------------------
// Mutations of a JSON document (at most one size-blowing mutation per document, see mutate)

const MUTATIONS = Object.freeze(['delete', 'wrongType', 'numberAsString', 'null', 'hugeArray', 'deepNesting', 'unicode', 'hugeString', 'unknownField']);

/** One mutation: what to do and where (an index into the document's nodes, taken modulo their number). */
const mutation = fc.record({ kind: fc.constantFrom(...MUTATIONS), at: fc.nat(), value: anyJson, text: edgeString, size: fc.integer({ min: 1, max: 4 }) });

/** Every node of a JSON tree as a path of keys (the root is []). */
function nodePaths(value, path = [], out = []) {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => nodePaths(v, [...path, i], out));
  else if (value && typeof value === 'object') for (const k of Object.keys(value)) nodePaths(value[k], [...path, k], out);
  return out;
}

function deepNesting(depth, leaf) {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
}

/** The replacement a mutation puts at a node (undefined: delete it). */
function replacement(m, current) {
  switch (m.kind) {
    case 'delete':
      return undefined;
    case 'wrongType':
      return typeof m.value === typeof current && current !== null ? (typeof current === 'string' ? 12345 : 'not-the-right-type') : m.value;
    case 'numberAsString':
      return typeof current === 'number' ? String(current) : typeof current === 'string' && /^\d+$/.test(current) ? Number(current) : '42';
    case 'null':
      return null;
    case 'hugeArray':
      // Up to 400 elements: far over anything a real notification holds, small enough that 50,000 cases finish.
      return Array.from({ length: 100 * m.size }, () => (current === undefined ? m.value : current));
    case 'deepNesting':
      return deepNesting(200 * m.size, current ?? m.text);
    case 'unicode':
      return typeof current === 'string' ? `${current}${m.text}` : m.text;
    case 'hugeString':
      return (m.text || 'x').repeat(Math.ceil((20_000 * m.size) / Math.max(1, (m.text || 'x').length)));
    case 'unknownField':
      return current && typeof current === 'object' && !Array.isArray(current) ? { ...current, [`x_${m.text}`]: m.value } : current;
    default:
      throw new Error(`unknown mutation ${m.kind}`);
  }
}

const BIG = new Set(['hugeArray', 'deepNesting', 'hugeString']);

/** Applies mutations to a deep copy of a JSON document; only the first size-blowing one (so bodies stay a few MiB). */
function mutate(document, mutations) {
  let doc = JSON.parse(JSON.stringify(document ?? null));
  let blown = false;
  for (const original of mutations) {
    // fast-check hands out shared instances (constant objects and arrays): copy the value, and re-copy the document
    // after each step, so no mutation ever writes into a constant or into an alias elsewhere in the document.
    const m = { ...original, kind: blown && BIG.has(original.kind) ? 'unicode' : original.kind, value: JSON.parse(JSON.stringify(original.value ?? null)) };
    blown ||= BIG.has(m.kind);
    const paths = nodePaths(doc);
    const path = paths[m.at % paths.length];
    if (path.length === 0) {
      const next = replacement(m, doc);
      doc = next === undefined ? null : JSON.parse(JSON.stringify(next));
      continue;
    }
    const parent = path.slice(0, -1).reduce((node, key) => node[key], doc);
    const key = path[path.length - 1];
    const next = replacement(m, parent[key]);
    if (next === undefined) {
      if (Array.isArray(parent)) parent.splice(key, 1);
      else delete parent[key];
    } else parent[key] = next;
    doc = JSON.parse(JSON.stringify(doc));
  }
  return doc;
}

// ---------------------------------------------------------------------------------------------------------------------
// The gateway's routes, from its OpenAPI document

/**
 * Every operation of the document, `{method, path, template, params, query, bodySchema, streaming}`. Streaming
 * operations (server-sent events never end) are marked so the runner can leave them out.
 */
function routesFromOpenApi(doc) {
  const routes = [];
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => resolve(doc, p));
      const content = resolve(doc, op.requestBody)?.content ?? {};
      const bodySchema = content['application/json']?.schema ?? Object.values(content)[0]?.schema;
      const streaming = Object.values(op.responses ?? {}).some((r) => Object.keys(resolve(doc, r)?.content ?? {}).includes('text/event-stream'));
      routes.push({
        method: method.toUpperCase(),
        template,
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        bodySchema,
        streaming: streaming || /\/stream$/.test(template),
      });
    }
  }
  return routes;
}

function resolve(doc, node) {
  let current = node;
  for (let i = 0; current && current.$ref && i < 20; i++) {
    current = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((n, k) => n?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return current;
}

/** A value that mostly satisfies the schema (so requests reach the deeper rules), sometimes a hostile string. */
function valueFor(doc, schemaOrRef, depth = 0) {
  const schema = resolve(doc, schemaOrRef) ?? {};
  if (depth > 5) return fc.constant(null);
  if (schema.enum?.length) return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: anyString });
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants?.length) return fc.oneof(...variants.map((s) => valueFor(doc, s, depth + 1)));
  if (schema.allOf?.length) return valueFor(doc, Object.assign({}, ...schema.allOf.map((s) => resolve(doc, s))), depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type ?? (schema.properties ? 'object' : undefined)) {
    case 'string':
      return fc.oneof({ weight: 4, arbitrary: plausibleString(schema) }, { weight: 1, arbitrary: anyString });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -5, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueFor(doc, schema.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object': {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const arbitraries = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valueFor(doc, s, depth + 1)]));
      return fc.record(arbitraries, { requiredKeys: Object.keys(props).filter((k) => required.has(k)) });
    }
    default:
      return anyJson;
  }
}

function plausibleString(schema) {
  switch (schema.format) {
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
      return fc.constantFrom('https://example.com/hook', 'http://127.0.0.1:9/hook', 'http://169.254.169.254/latest/meta-data', 'ftp://x', 'not a url');
    case 'date-time':
      return fc.date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') }).map((d) => d.toISOString());
    default:
      if (schema.pattern) {
        try {
          return fc.stringMatching(new RegExp(schema.pattern), { size: 'xsmall' });
        } catch {
          /* a pattern fast-check cannot invert: fall through */
        }
      }
      return fc.string({ unit: 'grapheme', minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 200) });
  }
}

/** A path parameter: often one of the run's real ids (its own or another tenant's), often a well-formed unknown id, often hostile. */
function pathParam(knownIds) {
  const ulidChar = fc.constantFrom(...'0123456789ABCDEFGHJKMNPQRSTVWXYZ');
  return fc.oneof(
    ...(knownIds.length ? [{ weight: 3, arbitrary: fc.constantFrom(...knownIds) }] : []),
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('msg', 'chn', 'whk', 'dlv', 'key', 'ten', 'agt', 'cnv', 'led', 'apt'), fc.string({ unit: ulidChar, minLength: 26, maxLength: 26 }))
        .map(([prefix, id]) => `${prefix}_${id}`),
    },
    { weight: 2, arbitrary: anyString.filter((s) => s.length > 0) },
    { weight: 1, arbitrary: fc.constantFrom('..', '%2e%2e%2f', 'a'.repeat(5000), '1', 'v1', 'support') },
  );
}

/**
 * One HTTP request against one of `routes`: `{route, method, path, headers, body}` (body a string or undefined).
 * `credentials`: Authorization header values to draw from (the tenants' keys and tokens, the admin token);
 * `knownIds`: real ids of the run, for path parameters.
 */
function httpCase(doc, routes, { credentials, knownIds = [] }) {
  const perRoute = routes.map((route) => {
    const query = fc.dictionary(
      fc.oneof(...(route.query.length ? [fc.constantFrom(...route.query.map((q) => q.name))] : []), fc.constantFrom('limit', 'cursor', 'since', 'x')),
      fc.oneof(...route.query.map((q) => valueFor(doc, q.schema).map(String)), anyString, fc.constantFrom('0', '101', '-1', '1.5', '2026-13-45', 'abc')),
      { maxKeys: 3 },
    );
    const body = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(valueFor(doc, route.bodySchema ?? { type: 'object' }), fc.array(mutation, { maxLength: 3 })).map(([v, ms]) => JSON.stringify(mutate(v, ms))) },
      { weight: 1, arbitrary: fc.json({ maxDepth: 4 }) },
      { weight: 1, arbitrary: fc.constantFrom('', '{', '{"a":', 'null', '[]', '"x"', '1e999', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{}}}', 'grant_type=client_credentials&client_id=x') },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
    );
    return fc
      .record({
        method: fc.oneof({ weight: 9, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') }),
        params: fc.array(pathParam(knownIds), { minLength: route.params.length, maxLength: route.params.length }),
        query: fc.option(query, { nil: undefined, freq: 2 }),
        credential: fc.option(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...credentials) }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 200 }) }), { nil: undefined, freq: 8 }),
        contentType: fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom('application/x-www-form-urlencoded', 'text/plain', 'application/json; charset=utf-16', 'multipart/form-data') }),
        body: fc.option(body, { nil: undefined, freq: 10 }),
      })
      .map(({ method, params, query, credential, contentType, body: payload }) => {
        let i = 0;
        const path = route.template.replace(/\{[^}]+\}/g, () => encodeURIComponent(params[i++].toWellFormed()));
        const search = query && Object.keys(query).length ? `?${new URLSearchParams(query).toString()}` : '';
        const headers = {};
        if (credential !== undefined) headers.authorization = credential;
        const sendsBody = payload !== undefined && method !== 'GET' && method !== 'DELETE';
        if (sendsBody) headers['content-type'] = contentType;
        return { route: `${route.method} ${route.template}`, method, path: `${path}${search}`, headers, body: sendsBody ? payload : undefined };
      });
  });
  return fc.oneof(...perRoute);
}

// ---------------------------------------------------------------------------------------------------------------------
// The provider webhook

/** A well-formed Cloud API notification with text messages and statuses for one phone number id. */
function cloudNotification(phoneNumberId) {
  return fc
    .record({
      from: fc.stringMatching(/^[1-9]\d{9,13}$/),
      id: fc.uuid(),
      body: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 120 }), edgeString),
      type: fc.constantFrom('text', 'text', 'text', 'image', 'location', 'interactive', 'reaction', 'unknown'),
      status: fc.constantFrom('sent', 'delivered', 'read', 'failed'),
      withStatus: fc.boolean(),
      timestamp: fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }),
    })
    .map(({ from, id, body, type, status, withStatus, timestamp }) => {
      const message = { from, id: `wamid.fuzz${id.replace(/-/g, '')}`, timestamp: String(timestamp), type };
      if (type === 'text') message.text = { body };
      else if (type === 'image') message.image = { id: '123', mime_type: 'image/jpeg', sha256: 'x', caption: body };
      else if (type === 'location') message.location = { latitude: 52.5, longitude: 13.4, name: body };
      const value = {
        messaging_product: 'whatsapp',
        metadata: { display_phone_number: '15550000000', phone_number_id: phoneNumberId },
        contacts: [{ profile: { name: body }, wa_id: from }],
        messages: [message],
      };
      if (withStatus) value.statuses = [{ id: `wamid.fuzzstatus${id.replace(/-/g, '')}`, status, timestamp: String(timestamp), recipient_id: from }];
      return { object: 'whatsapp_business_account', entry: [{ id: '1029384756', changes: [{ field: 'messages', value }] }] };
    });
}

/** `sha256=<hex HMAC-SHA256 of the raw body>`, the X-Hub-Signature-256 header Meta sends. */
const signCloudApi = cloudApiSignature;

/**
 * A validly signed `POST /webhooks/whatsapp`: a notification for one of `phoneNumberIds` (the tenants' channels, so
 * it reaches the messaging-service's deeper paths) or an unknown one, mutated, or (1 in 10) a signed body that is not
 * JSON; now and then in another content type than JSON. Every one must be answered 200 (CONTRACT §7).
 */
function webhookCase({ appSecret, phoneNumberIds }) {
  const phoneNumberId = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...phoneNumberIds) }, { weight: 1, arbitrary: fc.stringMatching(/^\d{6,16}$/) });
  const json = phoneNumberId.chain((id) => fc.tuple(cloudNotification(id), fc.array(mutation, { maxLength: 4 }))).map(([doc, ms]) => JSON.stringify(mutate(doc, ms)));
  const notJson = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.constantFrom('', '{', '{"object":', 'not json', '<xml/>', 'entry=1&object=x'));
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/octet-stream', 'application/x-www-form-urlencoded', 'application/json; charset=utf-8') },
  );
  return fc.record({ body: fc.oneof({ weight: 9, arbitrary: json }, { weight: 1, arbitrary: notJson }), contentType }).map(({ body, contentType: type }) => ({
    route: 'POST /webhooks/whatsapp (signed)',
    method: 'POST',
    path: '/webhooks/whatsapp',
    headers: { 'content-type': type, 'x-hub-signature-256': signCloudApi(body, appSecret) },
    body,
    signed: true,
  }));
}

/**
 * The case stream of a run: `count` cases from `seed`, a fraction `webhookShare` of them signed provider
 * notifications, generated in batches so a 50,000-case run never holds them all in memory.
 */
function* caseBatches({ doc, routes, credentials, knownIds, appSecret, phoneNumberIds, count, seed, webhookShare = 0.3, batchSize = 500 }) {
  const http = httpCase(doc, routes, { credentials, knownIds });
  const webhook = webhookCase({ appSecret, phoneNumberIds });
  const webhookWeight = Math.round(webhookShare * 100);
  const any = fc.oneof({ weight: 100 - webhookWeight, arbitrary: http }, { weight: webhookWeight, arbitrary: webhook });
  for (let start = 0, batch = 0; start < count; start += batchSize, batch++) {
    yield fc.sample(any, { numRuns: Math.min(batchSize, count - start), seed: (seed + batch) | 0 });
  }
}

module.exports = { EDGE_STRINGS, MUTATIONS, mutate, routesFromOpenApi, httpCase, webhookCase, signCloudApi, caseBatches };
