import { pollUntil } from '@parley/testing';
import { signUp as signUpTenant } from './support/api';
import { http } from './support/http';
import { startPlatform, type Platform } from './support/platform';
import { WebhookReceiver } from './support/webhook-receiver';

// WhatsApp end to end (issue 5): embedded signup through the gateway, the messaging-service and the sandbox's Graph
// routes; template sends and the 24-hour window on the number it connected; a slow provider that must not get a
// message twice; customers writing while the gateway is down (issue 16). Public HTTP only, plus the sandbox's own
// routes playing WhatsApp.

interface SandboxMessage {
  id: string;
  phone_number_id: string;
  to: string;
  type: 'text' | 'template';
  text?: { body: string };
  template?: { name: string; language: { code: string }; components?: unknown[] };
}

/** The Cloud API default time-out of a provider call (WHATSAPP_PROVIDER_TIMEOUT_MS): the slow sandbox answers later. */
const PROVIDER_TIMEOUT_MS = 5_000;

describe('WhatsApp end to end: embedded signup, templates, the 24-hour window and a slow provider', () => {
  let platform: Platform;

  beforeAll(async () => {
    platform = await startPlatform();
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
  }, 60_000);

  const signUpWithToken = (name: string) => signUpTenant(platform.gateway, name);
  const signUp = async (name: string) => (await signUpWithToken(name)).api;

  interface Template {
    id: string;
    channel_id: string;
    name: string;
    status: 'PENDING' | 'APPROVED' | 'REJECTED';
    reason: string | null;
  }

  /** Submits a template (CONTRACT §13) and waits for the provider's review notification to settle it. */
  async function reviewedTemplate(token: string, body: Record<string, unknown>): Promise<Template> {
    const created = await http<Template>('POST', `${platform.gateway}/api/v1/templates`, { token, json: body });
    expect({ status: created.status, body: created.body }).toMatchObject({ status: 201 });
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^tpl_/), status: 'PENDING', reason: null });
    return pollUntil(
      async () => {
        const got = await http<Template>('GET', `${platform.gateway}/api/v1/templates/${created.body.id}`, { token });
        return got.body.status !== 'PENDING' && got.body;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: `template ${String(body.name)} reviewed` },
    );
  }

  async function sandboxMessages(to: string): Promise<SandboxMessage[]> {
    const res = await http<{ data: SandboxMessage[] }>('GET', `${platform.sandbox}/_sandbox/messages?to=${encodeURIComponent(to)}`);
    expect(res.status).toBe(200);
    return res.body.data;
  }

  /** One counter of the messaging-service's Prometheus metrics (0 when it has no sample yet). */
  async function metric(name: string, labels = ''): Promise<number> {
    const res = await http<string>('GET', `${platform.urls['messaging-service']}/metrics`);
    const line = res.text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
    return line ? Number(line.split(' ').at(-1)) : 0;
  }

  it('connects a number by embedded signup, sends a template to a new customer, and refuses free-form text outside the window', async () => {
    const { api, token } = await signUpWithToken('Signup Florist');
    const wabaId = `1${Date.now()}`.slice(0, 15);
    const phoneNumberId = `2${Date.now()}`.slice(0, 15);

    // A failed code exchange answers a clear problem and connects nothing.
    const refused = await api.POST('/api/v1/channels/whatsapp/embedded-signup', { body: { code: 'invalid', waba_id: wabaId, phone_number_id: phoneNumberId } });
    expect(refused.response.status).toBe(400);
    expect(refused.response.headers.get('content-type')).toContain('application/problem+json');
    expect((await api.GET('/api/v1/channels')).data!.data.map((c) => c.provider)).toEqual(['sandbox']);

    // The real flow: code → business token, WABA subscription, number registration, display number, all against the
    // sandbox's Graph routes (GRAPH_API_BASE_URL).
    const signup = await api.POST('/api/v1/channels/whatsapp/embedded-signup', { body: { code: `code-${Date.now()}`, waba_id: wabaId, phone_number_id: phoneNumberId } });
    expect(signup.response.status).toBe(201);
    expect(signup.data).toMatchObject({
      id: expect.stringMatching(/^chn_/),
      provider: 'meta',
      phone_number: expect.stringMatching(/^\+\d+$/),
      phone_number_id: phoneNumberId,
      waba_id: wabaId,
      status: 'connected',
      is_default: false,
    });
    expect(JSON.stringify(signup.data)).not.toMatch(/access_token|EAA/);
    const numbers = await http<{ data: { phone_number: string; phone_number_id: string }[] }>('GET', `${platform.sandbox}/_sandbox/numbers`);
    expect(numbers.body.data).toContainEqual(expect.objectContaining({ phone_number_id: phoneNumberId, phone_number: signup.data!.phone_number }));
    const from = signup.data!.phone_number;

    // A template opens a conversation with a customer who never wrote: it reaches WhatsApp as a Cloud API template,
    // once the template is approved on that number's WABA.
    const approved = await reviewedTemplate(token, {
      name: 'order_update',
      language: 'en_US',
      category: 'UTILITY',
      channel_id: signup.data!.id,
      components: [{ type: 'BODY', text: 'Hi {{1}}, your order is on its way.', example: { body_text: [['Ana']] } }],
    });
    expect(approved).toMatchObject({ status: 'APPROVED', channel_id: signup.data!.id });
    const customer = '+12025550181';
    const template = { name: 'order_update', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }] };
    const sent = await api.POST('/v1/send', { body: { channel: 'whatsapp', to: customer, from, template } });
    expect(sent.response.status).toBe(200);
    expect(sent.data).toEqual({ status: 'sent', message_id: expect.stringMatching(/^msg_/) });
    const delivered = await pollUntil(async () => (await sandboxMessages(customer)).find((m) => m.phone_number_id === phoneNumberId), {
      timeoutMs: 30_000,
      intervalMs: 250,
      description: 'the template at the sandbox',
    });
    expect(delivered).toMatchObject({ type: 'template', template });
    const record = await pollUntil(
      async () => {
        const r = await api.GET('/api/v1/messages/{message_id}', { params: { path: { message_id: sent.data!.message_id } } });
        return r.data?.status === 'read' && r.data;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'the template read (statuses back through the gateway)' },
    );
    expect(record).toMatchObject({ type: 'template', from, to: customer });
    expect(record.status_history.map((e) => e.status)).toEqual(['sent', 'delivered', 'read']);

    // Free-form text to that customer (who has not written in 24 h) is accepted, then fails clearly: 131047.
    const text = await api.POST('/v1/send', { body: { channel: 'whatsapp', to: customer, from, message: 'Are you still interested?' } });
    expect(text.response.status).toBe(200);
    const failed = await pollUntil(
      async () => {
        const r = await api.GET('/api/v1/messages/{message_id}', { params: { path: { message_id: text.data!.message_id } } });
        return r.data?.status === 'failed' && r.data;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'the free-form text to fail' },
    );
    expect(failed.error).toEqual({ code: '131047', title: expect.stringMatching(/24 hours|window/i) });
    expect((await sandboxMessages(customer)).filter((m) => m.type === 'text')).toEqual([]);
  }, 120_000);

  it('templates are approved or rejected by review notifications and checked at send; STOP refuses marketing (409) but not utility, START opts back in, other tenants unaffected', async () => {
    const { api, token } = await signUpWithToken('Template Bakery');
    const receiver = await WebhookReceiver.start();
    try {
      expect((await api.POST('/api/v1/webhooks', { body: { url: receiver.url } })).response.status).toBe(201);
      const agent = await api.PUT('/api/v1/agents/{agent_name}', {
        params: { path: { agent_name: 'baker' } },
        body: { name: 'baker', instruction: 'You are the assistant of a bakery.', greeting: '', skills: ['faq_responder'] },
      });
      expect(agent.response.status).toBe(201);
      const channel = (await api.GET('/api/v1/channels')).data!.data[0];
      const events = () => receiver.received.map((d) => JSON.parse(d.body) as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any
      const body = (text: string, example: string[]) => [{ type: 'BODY', text, example: { body_text: [example] } }];

      // A definition that breaks the Cloud API rules is refused naming the component field.
      const bad = await http<{ errors: { field: string }[] }>('POST', `${platform.gateway}/api/v1/templates`, {
        token,
        json: { name: 'bad_numbering', language: 'en', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hi {{2}}' }] },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e) => e.field)).toContain('components[0].text');

      // Review: approved after the sandbox's delay, or rejected (a name containing "reject") with a reason, each announced.
      const promo = await reviewedTemplate(token, { name: 'spring_sale', language: 'en', category: 'MARKETING', components: body('Hi {{1}}, 20% off all cakes this week.', ['Ana']) });
      const receipt = await reviewedTemplate(token, { name: 'order_receipt', language: 'en', category: 'UTILITY', components: body('Order {{1}} is ready to collect.', ['A-17']) });
      const rejected = await reviewedTemplate(token, { name: 'promo_reject_me', language: 'en', category: 'MARKETING', components: body('Buy now', []).map(({ type, text }) => ({ type, text })) });
      expect([promo.status, receipt.status]).toEqual(['APPROVED', 'APPROVED']);
      expect(rejected).toMatchObject({ status: 'REJECTED', reason: 'INVALID_FORMAT' });
      await pollUntil(() => events().some((e) => e.event === 'template.status' && e.template.id === rejected.id && e.template.reason === 'INVALID_FORMAT'), {
        timeoutMs: 30_000,
        intervalMs: 250,
        description: 'template.status of the rejected template at the webhook',
      });
      expect(events().find((e) => e.event === 'template.status' && e.template.id === promo.id)?.template.status).toBe('APPROVED');
      const listed = await http<{ data: Template[] }>('GET', `${platform.gateway}/api/v1/templates`, { token });
      expect(listed.body.data.map((t) => t.name).sort()).toEqual(['order_receipt', 'promo_reject_me', 'spring_sale']);

      // Send-time checks: every placeholder filled, the language known, the template approved; all before queueing.
      const customer = '+12025550191';
      const send = (template: Record<string, unknown>, token_ = token) => http<{ type?: string; errors?: { field: string; message: string }[] }>('POST', `${platform.gateway}/v1/send`, { token: token_, json: { channel: 'whatsapp', to: customer, template } });
      const params = (text: string) => [{ type: 'body', parameters: [{ type: 'text', text }] }];
      const missing = await send({ name: 'order_receipt', language: { code: 'en' } });
      expect(missing.status).toBe(400);
      expect(missing.body.errors).toEqual([{ field: 'template.components', message: expect.stringContaining('1 parameter(s), 0 given') }]);
      expect((await send({ name: 'order_receipt', language: { code: 'es' }, components: params('A-17') })).body.errors?.[0].field).toBe('template.language.code');
      expect((await send({ name: 'no_such_template', language: { code: 'en' } })).body.errors?.[0].field).toBe('template.name');
      const notApproved = await send({ name: 'promo_reject_me', language: { code: 'en' } });
      expect(notApproved.status).toBe(400);
      expect(notApproved.body.errors?.[0].message).toContain('REJECTED');
      expect((await send({ name: 'spring_sale', language: { code: 'en' }, components: params('Ana') })).status).toBe(200);

      // STOP (any case, trailing punctuation): confirmed in one line, announced, and marketing refused from then on.
      const write = async (text: string) => expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: customer, to: channel.phone_number, text } })).status).toBe(200);
      await write('Stop.');
      const optedOut = await pollUntil(() => events().find((e) => e.event === 'contact.opted_out' && e.customer === customer), {
        timeoutMs: 30_000,
        intervalMs: 250,
        description: 'contact.opted_out at the webhook',
      });
      expect(optedOut).toMatchObject({ tenant_id: expect.stringMatching(/^ten_/), channel: 'whatsapp', keyword: 'STOP', message_id: expect.stringMatching(/^msg_/) });
      const received = await pollUntil(() => events().find((e) => e.event === 'message.received' && e.message === 'Stop.'), {
        timeoutMs: 30_000,
        intervalMs: 250,
        description: 'message.received of the STOP',
      });
      expect(received.agent_response).toMatch(/won't receive marketing messages.*START/);
      await pollUntil(async () => (await sandboxMessages(customer)).some((m) => m.type === 'text' && /Reply START/.test(m.text?.body ?? '')), {
        timeoutMs: 30_000,
        intervalMs: 250,
        description: 'the opt-out confirmation at the customer',
      });
      const refused = await pollUntil(
        async () => {
          const r = await send({ name: 'spring_sale', language: { code: 'en' }, components: params('Ana') });
          return r.status === 409 && r;
        },
        { timeoutMs: 30_000, intervalMs: 250, description: 'a marketing template to the opted-out customer refused' },
      );
      expect(refused.body.type).toMatch(/\/opted-out$/);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      const utility = await send({ name: 'order_receipt', language: { code: 'en' }, components: params('A-17') });
      expect(utility.status).toBe(200);
      await pollUntil(async () => (await sandboxMessages(customer)).some((m) => m.type === 'template' && m.template?.name === 'order_receipt'), {
        timeoutMs: 30_000,
        intervalMs: 250,
        description: 'the utility template still reaches the opted-out customer',
      });

      // Another tenant's marketing to the same number is not affected by this tenant's opt-out.
      const other = await signUpWithToken('Other Shop');
      await reviewedTemplate(other.token, { name: 'spring_sale', language: 'en', category: 'MARKETING', components: body('Hi {{1}}, new flowers in.', ['Ana']) });
      expect((await send({ name: 'spring_sale', language: { code: 'en' }, components: params('Ana') }, other.token)).status).toBe(200);

      // START opts back in: announced, confirmed, and marketing goes again.
      await write('START');
      await pollUntil(() => events().some((e) => e.event === 'contact.opted_in' && e.customer === customer && e.keyword === 'START'), {
        timeoutMs: 30_000,
        intervalMs: 250,
        description: 'contact.opted_in at the webhook',
      });
      await pollUntil(async () => (await send({ name: 'spring_sale', language: { code: 'en' }, components: params('Ana') })).status === 200, {
        timeoutMs: 30_000,
        intervalMs: 250,
        description: 'marketing allowed again after START',
      });
    } finally {
      await receiver.close();
    }
  });

  it('sends a message once when the provider takes it but answers after the time-out (its status names the message)', async () => {
    const api = await signUp('Slow Provider Ltd');
    const channel = (await api.GET('/api/v1/channels')).data!.data.find((c) => c.provider === 'sandbox')!;
    const slow = await http('PUT', `${platform.sandbox}/_sandbox/numbers/${channel.phone_number_id}/behaviour`, { json: { answer_delay_ms: PROVIDER_TIMEOUT_MS + 2_000 } });
    expect(slow.status).toBe(200);
    const unknownBefore = await metric('messaging_provider_sends_total', 'provider="sandbox",outcome="unknown"');
    const repeatedBefore = await metric('messaging_repeated_sends_total');

    const customer = '+12025550182';
    const sent = await api.POST('/v1/send', { body: { channel: 'whatsapp', to: customer, message: 'Your table is booked.' } });
    expect(sent.response.status).toBe(200);
    const messageId = sent.data!.message_id;

    // The sandbox reports the message (naming it in biz_opaque_callback_data) before its answer comes: that records it.
    const read = await pollUntil(
      async () => {
        const r = await api.GET('/api/v1/messages/{message_id}', { params: { path: { message_id: messageId } } });
        return r.data?.status === 'read' && r.data;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'the slow message read' },
    );
    expect(read.status_history.map((e) => e.status)).toEqual(['sent', 'delivered', 'read']);
    // The attempt's time-out has been handled (its outcome was unknown), and nothing was sent again.
    await pollUntil(async () => (await metric('messaging_provider_sends_total', 'provider="sandbox",outcome="unknown"')) > unknownBefore, {
      timeoutMs: 20_000,
      intervalMs: 250,
      description: 'the timed-out attempt to be handled',
    });
    expect((await sandboxMessages(customer)).filter((m) => m.text?.body === 'Your table is booked.')).toHaveLength(1);
    expect(await metric('messaging_repeated_sends_total')).toBe(repeatedBefore);
  }, 90_000);

  it('loses no customer message while the gateway is down: 50 customers answered 202 queued are announced and answered once each after it is back', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const api = await signUp('Outage Bakery');
      const agent = await api.PUT('/api/v1/agents/{agent_name}', {
        params: { path: { agent_name: 'support' } },
        body: { name: 'support', instruction: 'You are the assistant of Outage Bakery.', greeting: 'Hello from Outage Bakery!', skills: ['faq_responder'] },
      });
      expect(agent.response.status).toBe(201);
      expect((await api.POST('/api/v1/webhooks', { body: { url: receiver.url, events: ['message.received'] } })).response.status).toBe(201);
      const channel = (await api.GET('/api/v1/channels')).data!.data.find((c) => c.provider === 'sandbox')!;

      await platform.stopService('gateway');
      const customers = Array.from({ length: 50 }, (_, i) => `+1202555${String(2000 + i)}`);
      const written = await Promise.all(
        customers.map((from) => http<{ id: string; queued?: boolean }>('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from, to: channel.phone_number, text: `Hi, are you open today? (${from})` } })),
      );
      for (const answer of written) expect({ status: answer.status, body: answer.body }).toEqual({ status: 202, body: { id: expect.stringMatching(/^wamid\./), queued: true } });
      await platform.startService('gateway');

      // Every customer's message reaches the tenant's webhook, answered by the agent...
      const announced = await pollUntil(
        () => {
          const events = receiver.received.map((r) => JSON.parse(r.body) as { event: string; from: string; agent_response: string | null });
          const received = events.filter((e) => e.event === 'message.received');
          return new Set(received.map((e) => e.from)).size >= customers.length && received;
        },
        { timeoutMs: 90_000, intervalMs: 250, description: 'message.received for all 50 customers' },
      );
      expect(announced.map((e) => e.from).sort()).toEqual([...customers].sort()); // each once
      expect(announced.every((e) => typeof e.agent_response === 'string' && e.agent_response.length > 0)).toBe(true);

      // ...and each customer gets exactly one reply on WhatsApp.
      const repliesTo = async () => {
        const res = await http<{ data: SandboxMessage[] }>('GET', `${platform.sandbox}/_sandbox/messages?from=${encodeURIComponent(channel.phone_number)}`);
        return customers.map((c) => res.body.data.filter((m) => m.to.replace(/\D/g, '') === c.slice(1)).length);
      };
      await pollUntil(async () => (await repliesTo()).every((n) => n >= 1), { timeoutMs: 60_000, intervalMs: 250, description: 'a reply to each of the 50 customers' });
      expect(await repliesTo()).toEqual(customers.map(() => 1));
    } finally {
      await receiver.close();
    }
  }, 240_000);
});
