import type { INestApplication } from '@nestjs/common';
import { createServiceApp, loadConfig, runMigrations } from '@parley/service-kit';
import { createTestDatabase, type TestDatabase } from '@parley/testing';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sandboxAppOptions, whatsappSandboxModule } from '../app.module';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { whatsappSandboxDatabase } from '../database/whatsapp-sandbox.database';
import type { SandboxCall } from './voice.service';

const AUTH_TOKEN = 'voice-spec-auth-token';
const CALLER = '+16505551234';
const BUSINESS = '+14155550199';
const twiml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;
const gather = (say: string, action: string) => `<Gather input="speech" action="${action}" method="POST"><Say language="en-US">${say}</Say></Gather><Redirect>${action}</Redirect>`;

/** Plays the gateway's voice webhook: checks Twilio's signature as the gateway does, answers TwiML, records the forms. */
class VoiceGateway {
  readonly forms: { path: string; form: Record<string, string> }[] = [];
  private constructor(private readonly server: Server) {}
  url = '';

  static async start(): Promise<VoiceGateway> {
    const gateway: VoiceGateway = new VoiceGateway(createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(raw));
        const url = `${gateway.url}${req.url ?? ''}`;
        const expected = createHmac('sha1', AUTH_TOKEN).update(Object.keys(form).sort().reduce((acc, k) => acc + k + form[k], url), 'utf8').digest('base64');
        if (req.headers['x-twilio-signature'] !== expected) return void res.writeHead(401).end();
        const path = (req.url ?? '').split('?')[0];
        gateway.forms.push({ path, form });
        res.writeHead(200, { 'content-type': path === '/webhooks/twilio/voice/status' ? 'text/plain' : 'text/xml' });
        if (path === '/webhooks/twilio/voice') return void res.end(twiml(gather('Hello &amp; welcome.', '/webhooks/twilio/voice/gather?turn=1')));
        if (path === '/webhooks/twilio/voice/gather' && /person/.test(form.SpeechResult)) return void res.end(twiml('<Say>Connecting you.</Say><Dial>+14155550123</Dial>'));
        if (path === '/webhooks/twilio/voice/gather') return void res.end(twiml('<Say>One moment.</Say><Redirect method="POST">/webhooks/twilio/voice/reply?turn=1</Redirect>'));
        if (path === '/webhooks/twilio/voice/reply') return void res.end(twiml(gather('We open at nine.', '/webhooks/twilio/voice/gather?turn=2')));
        res.end('');
      });
    }));
    await new Promise<void>((resolve) => gateway.server.listen(0, '127.0.0.1', resolve));
    gateway.url = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
    return gateway;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('the sandbox playing a caller (Twilio Voice wire)', () => {
  let db: TestDatabase;
  let gateway: VoiceGateway;
  let app: INestApplication;
  let base: string;

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as SandboxCall };
  };

  beforeAll(async () => {
    db = await createTestDatabase('sandbox_voice');
    await runMigrations(db.url, whatsappSandboxDatabase);
    gateway = await VoiceGateway.start();
    const config = loadConfig(WhatsappSandboxConfig, { DATABASE_URL: db.url, PORT: '0', SANDBOX_SMTP_PORT: '0', LOG_LEVEL: 'warn', GATEWAY_URL: gateway.url, SANDBOX_TWILIO_AUTH_TOKEN: AUTH_TOKEN });
    app = await createServiceApp(whatsappSandboxModule(config), sandboxAppOptions);
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterAll(async () => {
    await app?.close();
    await gateway?.close();
    await db?.drop();
  });

  it('rings with a signed webhook, hears the greeting, speaks, follows the filler’s redirect, hears a Dial, and hangs up with the duration', async () => {
    const placed = await post('/_sandbox/voice/call', { from: CALLER, to: BUSINESS });
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({ from: CALLER, to: BUSINESS, status: 'in-progress', webhook_statuses: [200], transcript: [{ who: 'agent', text: 'Hello & welcome.' }] });
    const sid = placed.body.sid;
    expect(gateway.forms[0]).toEqual({ path: '/webhooks/twilio/voice', form: expect.objectContaining({ CallSid: sid, From: CALLER, To: BUSINESS, CallStatus: 'ringing' }) });

    const answered = await post('/_sandbox/voice/say', { call_sid: sid, text: 'When do you open?' });
    expect(answered.body.webhook_statuses).toEqual([200, 200]);
    expect(answered.body.transcript.slice(1)).toEqual([
      { who: 'caller', text: 'When do you open?' },
      { who: 'agent', text: 'One moment.' },
      { who: 'agent', text: 'We open at nine.' },
    ]);
    expect(gateway.forms[1].form).toMatchObject({ CallSid: sid, SpeechResult: 'When do you open?' });

    const forwarded = await post('/_sandbox/voice/say', { call_sid: sid, text: 'Let me talk to a person' });
    expect(forwarded.body).toMatchObject({ dialled: '+14155550123', transcript: expect.arrayContaining([{ who: 'agent', text: 'Connecting you.' }]) });
    // The Dial ended the Gather: there is nothing listening for speech any more.
    expect((await post('/_sandbox/voice/say', { call_sid: sid, text: 'Hello?' })).status).toBe(404);

    const ended = await post('/_sandbox/voice/hangup', { call_sid: sid, duration_seconds: 75 });
    expect(ended.body).toMatchObject({ status: 'completed', webhook_statuses: [200] });
    expect(gateway.forms.at(-1)).toEqual({ path: '/webhooks/twilio/voice/status', form: expect.objectContaining({ CallSid: sid, CallStatus: 'completed', CallDuration: '75' }) });
  });

  it('forges a call on request, which a gateway checking signatures refuses', async () => {
    const forged = await post('/_sandbox/voice/call', { from: CALLER, to: BUSINESS, forge_with_token: 'not-the-auth-token' });
    expect(forged.body).toMatchObject({ status: 'failed', webhook_statuses: [401], transcript: [] });
  });

  it('refuses a malformed call sid naming the field', async () => {
    const response = await fetch(`${base}/_sandbox/voice/say`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ call_sid: 'nope', text: 'hi' }) });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('call_sid');
  });
});
