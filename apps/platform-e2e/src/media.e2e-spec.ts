import { pollUntil } from '@parley/testing';
import { apiClient } from './support/api';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';
import { WebhookReceiver } from './support/webhook-receiver';

// Media, location and interactive messages end to end (CONTRACT §13, issue 20): uploads through the gateway into the
// media store, sends through messaging-service to the sandbox's Cloud API media and message routes (the bytes the
// customer got are read back there), customers' files downloaded from the sandbox's media URLs into the store and
// announced in message.received. Public HTTP only, plus the sandbox's own routes playing WhatsApp.

/** The magic numbers each media type is recognised by, padded to `size` bytes with a pattern. */
const HEADS: Record<string, Buffer> = {
  'image/png': Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  'image/jpeg': Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
  'application/pdf': Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n'),
  'audio/ogg': Buffer.concat([Buffer.from('OggS'), Buffer.alloc(24), Buffer.from('OpusHead'), Buffer.from('0101380180bb000000', 'hex')]),
  'video/mp4': Buffer.concat([Buffer.from('00000018', 'hex'), Buffer.from('ftypisom'), Buffer.from('00000200', 'hex'), Buffer.from('isomiso2')]),
  'image/webp': Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 '),
};
function sample(type: string, size = 4096, seed = 1): Buffer {
  const filler = Buffer.alloc(Math.max(0, size - HEADS[type].length));
  for (let i = 0; i < filler.length; i++) filler[i] = (i * 31 + seed * 7) & 0xff;
  return Buffer.concat([HEADS[type], filler]);
}

interface MediaRecord {
  id: string;
  mime_type: string;
  size: number;
  sha256: string;
  filename: string | null;
}

describe('Media end to end: upload, send each type, receive each type, refusals', () => {
  let platform: Platform;
  let receiver: WebhookReceiver;
  let token: string;
  let otherToken: string;
  let business: string;
  const customer = '+12025550177';

  beforeAll(async () => {
    platform = await sharedPlatform();
    receiver = await WebhookReceiver.start();
    const signUp = async (name: string) => {
      const account = await apiClient(platform.gateway).POST('/api/v1/accounts', { body: { name } });
      expect(account.response.status).toBe(201);
      return account.data!.api_key;
    };
    [token, otherToken] = [await signUp('Media Bakery'), await signUp('Other Bakery')];
    expect((await http('POST', `${platform.gateway}/api/v1/webhooks`, { token, json: { url: receiver.url, events: ['message.received'] } })).status).toBe(201);
    business = (await http<{ data: { phone_number: string }[] }>('GET', `${platform.gateway}/api/v1/channels`, { token })).body.data[0].phone_number;
  }, 180_000);

  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  }, 60_000);

  async function upload(bytes: Buffer, type: string, filename = 'file.bin', bearer = token) {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type }), filename);
    const res = await fetch(`${platform.gateway}/api/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${bearer}` }, body: form });
    return { status: res.status, body: (await res.json()) as MediaRecord & { errors?: { field: string; message: string }[] } };
  }

  async function download(id: string, bearer = token) {
    const res = await fetch(`${platform.gateway}/api/v1/media/${id}`, { headers: { authorization: `Bearer ${bearer}` } });
    return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
  }

  const send = (json: Record<string, unknown>) => http<{ message_id?: string; errors?: { field: string; message: string }[] }>('POST', `${platform.gateway}/v1/send`, { token, json: { channel: 'whatsapp', to: customer, ...json } });

  async function atSandbox(type: string, count: number): Promise<Record<string, Record<string, unknown>>[]> {
    return pollUntil(
      async () => {
        const listed = await http<{ data: Record<string, Record<string, unknown>>[] }>('GET', `${platform.sandbox}/_sandbox/messages?to=${encodeURIComponent(customer)}`);
        const of = listed.body.data.filter((m) => (m.type as unknown) === type);
        return of.length >= count && of;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: `${count} ${type} message(s) at the sandbox` },
    );
  }

  it('stores an upload by its content, gives the same bytes back to its tenant only, and dedupes the same bytes', async () => {
    const bytes = sample('image/png', 10_000);
    const first = await upload(bytes, 'image/png', 'cake.png');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ id: expect.stringMatching(/^med_/), mime_type: 'image/png', size: 10_000, filename: 'cake.png', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await upload(bytes, 'image/png', 'again.png')).body.id).toBe(first.body.id);
    const back = await download(first.body.id);
    expect(back).toMatchObject({ status: 200, type: 'image/png' });
    expect(back.bytes.equals(bytes)).toBe(true);
    expect((await download(first.body.id, otherToken)).status).toBe(404);
  });

  it('refuses an oversized image (413), a mislabelled file (400) and a type WhatsApp does not send (415), naming file', async () => {
    const big = await upload(sample('image/jpeg', 5 * 1024 * 1024 + 1), 'image/jpeg');
    expect(big.status).toBe(413);
    expect(big.body.errors?.[0].field).toBe('file');
    const mislabelled = await upload(sample('application/pdf'), 'image/png', 'photo.png');
    expect(mislabelled.status).toBe(400);
    expect(mislabelled.body.errors).toEqual([{ field: 'file', message: expect.stringContaining('application/pdf') }]);
    expect((await upload(Buffer.from('GIF89a\x01\x00\x01\x00'), 'image/gif')).status).toBe(415);
  });

  it('sends an image, a document, audio and video: the customer gets the very bytes uploaded', async () => {
    for (const [kind, type, caption] of [
      ['image', 'image/jpeg', 'Fresh today'],
      ['document', 'application/pdf', 'Your receipt'],
      ['audio', 'audio/ogg', undefined],
      ['video', 'video/mp4', 'How we bake'],
    ] as const) {
      const bytes = sample(type, 20_000, kind.length);
      const uploaded = await upload(bytes, type, `${kind}.bin`);
      expect(uploaded.status).toBe(201);
      const sent = await send({ type: kind, media_id: uploaded.body.id, ...(caption ? { caption } : {}) });
      expect(sent.status).toBe(200);
      const [got] = await atSandbox(kind, 1);
      expect(got[kind]).toMatchObject({ id: expect.any(String), ...(caption ? { caption } : {}) });
      const atCustomer = Buffer.from(await (await fetch(`${platform.sandbox}/_sandbox/media/${String(got[kind].id)}`)).arrayBuffer());
      expect(atCustomer.equals(bytes)).toBe(true);
    }
    // A media id of the wrong kind, or of another tenant, is refused before queueing, naming media_id.
    const pdf = (await upload(sample('application/pdf', 900, 9), 'application/pdf')).body.id;
    expect((await send({ type: 'image', media_id: pdf })).body.errors?.[0].field).toBe('media_id');
    const theirs = (await upload(sample('image/png', 700, 9), 'image/png', 'x.png', otherToken)).body.id;
    expect((await send({ type: 'image', media_id: theirs })).body.errors?.[0].field).toBe('media_id');
  }, 120_000);

  it('sends a location and interactive buttons and lists in the Cloud API shapes; refuses what breaks their limits', async () => {
    expect((await send({ type: 'location', location: { latitude: 52.3676, longitude: 4.9041, name: 'Bakery', address: 'Main St 1' } })).status).toBe(200);
    expect((await send({ type: 'interactive', interactive: { type: 'button', body: 'Pick up or delivery?', buttons: [{ id: 'pickup', title: 'Pick up' }, { id: 'deliver', title: 'Delivery' }] } })).status).toBe(200);
    const rows = Array.from({ length: 3 }, (_, i) => ({ id: `slot${i}`, title: `${9 + i}:00` }));
    expect((await send({ type: 'interactive', interactive: { type: 'list', body: 'Choose a time', sections: [{ title: 'Tomorrow', rows }] } })).status).toBe(200);
    const [location] = await atSandbox('location', 1);
    expect(location.location).toEqual({ latitude: 52.3676, longitude: 4.9041, name: 'Bakery', address: 'Main St 1' });
    const [buttons, list] = await atSandbox('interactive', 2);
    expect(buttons.interactive).toEqual({ type: 'button', body: { text: 'Pick up or delivery?' }, action: { buttons: [{ type: 'reply', reply: { id: 'pickup', title: 'Pick up' } }, { type: 'reply', reply: { id: 'deliver', title: 'Delivery' } }] } });
    expect(list.interactive).toMatchObject({ type: 'list', action: { button: 'Options', sections: [{ title: 'Tomorrow', rows }] } });

    const four = await send({ type: 'interactive', interactive: { type: 'button', body: 'x', buttons: ['a', 'b', 'c', 'd'].map((id) => ({ id, title: id })) } });
    expect(four.status).toBe(400);
    expect(four.body.errors?.map((e) => e.field)).toContain('interactive.buttons');
    const long = await send({ type: 'interactive', interactive: { type: 'button', body: 'x', buttons: [{ id: 'a', title: 'A title far over twenty' }] } });
    expect(long.body.errors?.map((e) => e.field)).toContain('interactive.buttons[0].title');
    const eleven = await send({ type: 'interactive', interactive: { type: 'list', body: 'x', sections: [{ rows: Array.from({ length: 11 }, (_, i) => ({ id: `r${i}`, title: `r${i}` })) }] } });
    expect(eleven.body.errors?.map((e) => e.field)).toContain('interactive.sections');
    expect((await send({ type: 'location', location: { latitude: 91, longitude: 0 } })).body.errors?.map((e) => e.field)).toContain('location.latitude');
  }, 60_000);

  it('receives each media type into the store (a download failing twice is retried) and button replies, in message.received', async () => {
    const events = () => receiver.received.map((d) => JSON.parse(d.body) as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any
    const inbound = async (json: Record<string, unknown>) => {
      const res = await http<{ id: string }>('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: customer, to: business, ...json } });
      expect(res.status).toBe(200);
    };
    const files = [
      ['image', 'image/jpeg', 'my cake', 2],
      ['document', 'application/pdf', 'the order', 0],
      ['audio', 'audio/ogg', undefined, 0],
      ['video', 'video/mp4', 'look', 0],
      ['sticker', 'image/webp', undefined, 0],
    ] as const;
    const sent = new Map<string, Buffer>();
    for (const [type, mime, caption, failures] of files) {
      const bytes = sample(mime, 3000, type.length + 3);
      sent.set(type, bytes);
      await inbound({ type, media: { base64: bytes.toString('base64'), mime_type: mime, ...(failures ? { fail_downloads: failures } : {}) }, ...(caption ? { caption } : {}) });
    }
    // Written after the image: not held up by the image's failing downloads.
    await inbound({ text: 'are you open?' });
    await inbound({ type: 'interactive', reply: { id: 'pickup', title: 'Pick up' } });

    const received = await pollUntil(
      () => {
        const got = events().filter((e) => e.event === 'message.received');
        return got.length >= files.length + 2 && got;
      },
      { timeoutMs: 60_000, intervalMs: 250, description: 'every inbound message in message.received' },
    );
    const byType = new Map(received.map((e) => [e.type as string, e]));
    for (const [type, mime, caption] of files) {
      const event = byType.get(type)!;
      expect(event.media).toEqual({ id: expect.stringMatching(/^med_/), mime_type: mime, size: 3000, caption: caption ?? null });
      const stored = await download(event.media.id);
      expect(stored.bytes.equals(sent.get(type)!)).toBe(true);
    }
    const order = received.map((e) => e.type);
    expect(order.indexOf('text')).toBeLessThan(order.indexOf('image'));
    expect(byType.get('interactive')).toMatchObject({ message: 'Pick up', interactive: { id: 'pickup', title: 'Pick up' } });
  }, 120_000);
});
