// Scenario 1 of `npm run chaos`: customers write to many tenants while each service in turn is SIGKILLed and
// restarted and the tenants' receivers fail 30% of their requests; afterwards every message has exactly one reply and
// one announced `message.received`, none at another tenant. The logic is tools/chaos/lib/kill-rotation.cjs (shared
// with apps/platform-e2e/src/chaos.e2e-spec.ts).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { DEFAULTS, runKillRotation } = require('../lib/kill-rotation.cjs');

export const name = 'kill-rotation';
export const order = 1;
export const description = `${DEFAULTS.messages} inbound messages at ${DEFAULTS.rate}/s over ${DEFAULTS.tenants} tenants, receivers failing ${DEFAULTS.failureRate * 100}%, each service SIGKILLed and restarted in turn: one reply per message, every message.received delivered, nothing cross-tenant`;

export async function run(ctx) {
  const { args } = ctx;
  return runKillRotation(
    {
      messages: args.messages ?? DEFAULTS.messages,
      rate: args.rate ?? DEFAULTS.rate,
      tenants: args.tenants ?? DEFAULTS.tenants,
      failureRate: args.failureRate ?? DEFAULTS.failureRate,
      // --no-kill: none; --only-kill a,b: just those, in that order (to chase one service's defect); default all.
      kill: args.kill === false ? false : typeof args.onlyKill === 'string' ? args.onlyKill.split(',').map((s) => s.trim()) : DEFAULTS.kill,
    },
    { log: ctx.log, signal: ctx.signal },
  );
}
