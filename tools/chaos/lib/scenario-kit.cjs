'use strict';
// What the chaos scenarios use beside the platform: waiting (delay, waitFor), an open-loop load, plain HTTP calls that
// report a missing answer instead of throwing, a webhook receiver, and the small formatting of their figures.
const { randomBytes } = require('node:crypto');
const { createServer } = require('node:http');
const { performance } = require('node:perf_hooks');

/** Resolves after `ms`, or at once when `signal` aborts. */
const delay = (ms, signal) =>
  new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Polls `check` until it returns a truthy value or the deadline passes; resolves that value or undefined. */
async function waitFor(check, { timeoutMs, intervalMs = 500, signal }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline || signal?.aborted) return undefined;
    await delay(intervalMs, signal);
  }
}

/** An HTTP call with a JSON body; resolves `{ status, body, ms }` (status 0 = no answer within `timeoutMs`). */
async function call(method, url, { token, json, headers = {}, raw, timeoutMs = 30_000 } = {}) {
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method,
      headers: { ...(json || raw ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: raw ?? (json ? JSON.stringify(json) : undefined),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: res.status, body, ms: performance.now() - started };
  } catch (err) {
    return { status: 0, body: String(err?.cause?.code ?? err?.name ?? err), ms: performance.now() - started };
  }
}

/** A tenant's webhook endpoint: answers 204 and keeps every delivery's body. */
class Receiver {
  bodies = [];

  static async start() {
    const receiver = new Receiver();
    receiver.server = createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        receiver.bodies.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(204).end();
      });
    });
    await new Promise((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${receiver.server.address().port}/hook`;
    return receiver;
  }

  close() {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * Calls `fire(i)` `rate` times a second until `signal` aborts (or `until()` is true), without waiting for answers
 * (an open loop: a hanging request does not slow the offered rate). Resolves once every call has settled.
 */
async function openLoop({ rate, fire, signal, until = () => false }) {
  const pending = new Set();
  const started = performance.now();
  for (let i = 0; !signal.aborted && !until(); i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await delay(wait, signal);
    if (signal.aborted || until()) break;
    const p = Promise.resolve(fire(i)).catch(() => undefined);
    pending.add(p);
    p.finally(() => pending.delete(p));
  }
  await Promise.all(pending);
}

/** The switch of a scenario's load: `signal` aborts on `stop()` or when the run is interrupted (`runSignal`). */
function loadSwitch(runSignal) {
  const load = new AbortController();
  const stop = () => load.abort();
  runSignal?.addEventListener('abort', stop, { once: true });
  return {
    signal: load.signal,
    stop() {
      stop();
      runSignal?.removeEventListener('abort', stop);
    },
  };
}

/** A short random id for markers that tie a run's messages together. */
const runId = () => randomBytes(4).toString('hex');

const seconds = (ms) => Math.round(ms / 100) / 10;

/** Answers counted by status: `3× 503, 1× no answer`. */
function summarizeStatuses(records) {
  const counts = {};
  for (const r of records) counts[r.status ?? 'none'] = (counts[r.status ?? 'none'] ?? 0) + 1;
  return Object.entries(counts)
    .map(([status, n]) => `${n}× ${status === '0' ? 'no answer' : status}`)
    .join(', ');
}

module.exports = { Receiver, call, delay, loadSwitch, openLoop, runId, seconds, summarizeStatuses, waitFor };
