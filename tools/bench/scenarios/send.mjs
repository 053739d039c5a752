// Scenario 1, send: `POST /v1/send` with an API key of a `pro` tenant from many connections, to many distinct numbers,
// beside two ceilings measured in the same run: a bare Fastify route, and a bare route producing the same record to
// Kafka with the platform's publisher. Each is driven to saturation (throughput); the gateway first at the fixed
// offered rate (latency, BENCHMARKS.md: percentiles are read at a fixed rate, never at saturation), on a stack with
// no backlog yet.
import { createRequire } from 'node:module';
import { startCeiling } from '../lib/ceiling.mjs';
import { RssSampler, progress, round } from '../lib/measure.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');

const CONNECTIONS = 64;
const CUSTOMERS = 10_000;
const WARM_UP_SECONDS = 3;

const customer = (i) => `+49151${String(10_000_000 + (i % CUSTOMERS))}`;

/** One autocannon run; `rate` set = fixed offered rate (requests/s over all connections), else saturation. */
function cannon({ url, apiKey, seconds, rate, label }) {
  let n = 0;
  const instance = autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    requests: [
      {
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ channel: 'whatsapp', to: customer(n++), message: `bench ${n}` }) }),
      },
    ],
  });
  let done = 0;
  instance.on('response', () => done++);
  const stop = label ? progress(label, () => `${done} answered`) : () => undefined;
  return new Promise((resolve, reject) => {
    instance.once('done', (result) => {
      stop();
      resolve(result);
    });
    instance.once('error', reject);
  });
}

function row(name, result, seconds, offered, rss, extra = {}) {
  const ok = result['2xx'];
  return {
    scenario: name,
    offered: offered ?? 'max',
    achieved: round(ok / seconds, 0),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
    handled: ok,
    rss,
    ...extra,
  };
}

export async function sendScenario({ platform, seconds, rate, log }) {
  const rows = [];
  const measure = async (name, target, pids, offered) => {
    log(`${name}: warm-up ${WARM_UP_SECONDS} s`);
    await cannon({ ...target, seconds: WARM_UP_SECONDS, rate: offered ? Math.min(offered, 200) : 200 });
    log(`${name}: ${seconds} s at ${offered ? `${offered}/s` : 'saturation'} from ${CONNECTIONS} connections`);
    const sampler = new RssSampler(pids);
    const result = await cannon({ ...target, seconds, rate: offered, label: name });
    const r = row(name, result, seconds, offered, sampler.stop());
    r.cpu = sampler.cpu;
    log(`  → ${r.achieved}/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}`);
    rows.push(r);
    return r;
  };

  const bare = await startCeiling('bare', platform);
  const bareRow = await measure('send ceiling: bare Fastify', { url: bare.url }, { ceiling: bare.pid });
  await bare.stop();
  const kafka = await startCeiling('kafka', platform);
  const kafkaRow = await measure('send ceiling: Fastify + Kafka produce', { url: kafka.url }, { ceiling: kafka.pid });
  await kafka.stop();

  const tenant = await platform.tenant('bench send');
  const gateway = { url: `${platform.gateway}/v1/send`, apiKey: tenant.apiKey };
  // The fixed rate first: after the saturation run the stack still works off its backlog (the sends queued at the
  // number's pace, their status callbacks) for minutes, and the percentiles would measure that instead.
  const fixed = await measure('send: POST /v1/send, fixed rate', gateway, platform.pids(), rate);
  fixed.ceiling = kafkaRow.achieved;
  fixed.ratio = round(fixed.achieved / kafkaRow.achieved, 2);
  const saturated = await measure('send: POST /v1/send', gateway, platform.pids());
  saturated.ceiling = kafkaRow.achieved;
  saturated.ratio = round(saturated.achieved / kafkaRow.achieved, 2);
  saturated.note = `bare Fastify ${bareRow.achieved}/s; latency at saturation`;
  // rows in the table's usual order: ceilings, saturation, fixed rate
  return [...rows.filter((r) => r !== fixed), fixed];
}
