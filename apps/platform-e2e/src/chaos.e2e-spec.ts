// The kill-rotation scenario of `npm run chaos` (issue 9) is a workspace tool (tools/chaos, plain CommonJS): the short
// run here is exactly its code, its stack and its judgement, with fewer messages and two kills.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { runKillRotation, type ScenarioResult } from '../../../tools/chaos/lib/kill-rotation.cjs';

const MESSAGES = 300;
const TENANTS = 5;

describe('crashes under inbound load (short run of npm run chaos -- --scenario kill-rotation)', () => {
  const abort = new AbortController();
  let running: Promise<ScenarioResult> | undefined;

  afterAll(async () => {
    // The scenario stops its own stack when it ends; if the test timed out, end it now (jest's process-exit hooks do
    // not reach the stack's, so the services would outlive the run otherwise).
    abort.abort();
    await running?.catch(() => undefined);
  }, 60_000);

  it(`answers ${MESSAGES} customer messages over ${TENANTS} tenants exactly once each and announces each to its own tenant, while messaging-service and responder-service are SIGKILLed and receivers fail 30%`, async () => {
    running = runKillRotation(
      {
        messages: MESSAGES,
        rate: 50,
        tenants: TENANTS,
        failureRate: 0.3,
        kill: ['messaging-service', 'responder-service'],
        // Both kills fall inside the 6 s of sending, the second while the first service is still coming back.
        oneAtATime: false,
        // Once all is answered, 5 s in which nothing may change: a late repeat would show up here.
        settleMs: 5000,
        // A send in flight when messaging-service is killed has an unknown outcome: the new instance waits
        // WHATSAPP_UNCONFIRMED_SEND_WAIT_MS for a status naming it before sending it again (the sandbox reports within
        // a second), so the drain must outlast that wait: 15 s here instead of the default minute.
        serviceEnv: { WHATSAPP_UNCONFIRMED_SEND_WAIT_MS: '15000' },
        drainTimeoutMs: 60_000,
        label: 'e2e',
      },
      { log: (message) => process.stderr.write(`[chaos-e2e] ${message}\n`), signal: abort.signal },
    );
    const { figures, failures } = await running;
    process.stderr.write(`[chaos-e2e] ${JSON.stringify(figures)}\n`);

    expect(failures).toEqual([]);
    expect(figures).toMatchObject({
      'messages in': MESSAGES,
      'replies out': MESSAGES,
      'duplicate replies': 0,
      'missing replies': 0,
      'replies from another tenant': 0,
      'webhooks delivered': MESSAGES,
      'duplicate events (new id)': 0,
      'missing webhooks': 0,
      'cross-tenant': 0,
      'bad signatures': 0,
      'kills done': '2/2',
      'unexpected exits': 0,
    });
    // ~50 s on a quiet machine (stack start, two restarts, drain), ~65 s when a send's outcome was unknown; the
    // margin is for a busy one.
  }, 240_000);
});
