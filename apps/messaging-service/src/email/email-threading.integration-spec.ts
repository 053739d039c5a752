import { Headers, Topics, newId, type EventEnvelope } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { simpleParser, type ParsedMail } from 'mailparser';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createTransport } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { ChannelsService } from '../channels/channels.service';
import { MediaService } from '../media/media.service';
import { startMessagingService, type MessagingServiceUnderTest } from '../test/messaging-service-under-test';
import { SmtpInboundServer } from './smtp-inbound.server';

const TENANT = 'ten_01JD8Z6W2K3M4N5P6Q7R8S9EML';
const ADDRESS = 'hello@acme-threads.test';

/** An SMTP relay stand-in: takes every mail and keeps it parsed, headers included. */
async function fakeRelay(): Promise<{ url: string; mails: ParsedMail[]; close: () => Promise<void> }> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, _session, callback) => {
      simpleParser(stream).then(
        (mail) => {
          mails.push(mail);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Outbound mail threads with the customer's (RFC 5322 In-Reply-To, References); inbound mail keeps its files and checks. */
describe('email: threading headers, attachments and SPF/DKIM results (real Kafka, real SMTP)', () => {
  let service: MessagingServiceUnderTest;
  let relay: Awaited<ReturnType<typeof fakeRelay>>;
  let channelId: string;

  beforeAll(async () => {
    relay = await fakeRelay();
    service = await startMessagingService('emailthreads');
    channelId = (await service.app.get(ChannelsService).connectEmail(TENANT, { provider: 'smtp', address: ADDRESS, smtp_url: relay.url })).id;
  });

  afterAll(async () => {
    await service?.close();
    await relay?.close();
  });

  const publish = (topic: string, key: string, envelope: EventEnvelope) =>
    service.kafka.publisher.publish([{ topic, key, value: envelope, headers: { [Headers.EventType]: envelope.type } }]);
  /** The customer mails our listener; `headers` set Message-ID, In-Reply-To and References as a mail client would. */
  const customerWrites = async (customer: string, subject: string, thread: { messageId: string; inReplyTo?: string; references?: string[] }) => {
    const transport = createTransport({ host: '127.0.0.1', port: service.app.get(SmtpInboundServer).port, secure: false, ignoreTLS: true });
    await transport.sendMail({ from: customer, to: ADDRESS, subject, text: 'When do you open?', messageId: thread.messageId, inReplyTo: thread.inReplyTo, references: thread.references });
    transport.close();
    await pollUntil(() => service.inbound.find((m) => m.value.data.provider_message_id === thread.messageId), { description: `message.inbound of ${thread.messageId}`, timeoutMs: 20_000 });
  };
  /** The agent's reply on the channel (no subject: it answers the customer's latest mail); the mail the relay got. */
  const agentReplies = async (customer: string) => {
    const data = { message_id: newId('msg'), channel: 'email' as const, channel_id: channelId, from: null, to: customer, content: { type: 'text' as const, text: 'At nine.' }, origin: 'agent' as const, accepted_at: new Date().toISOString() };
    await publish(Topics.MessageOutbound, `${TENANT}:${customer}`, EventPublisher.envelope(Topics.MessageOutbound, TENANT, data));
    const mail = await pollUntil(() => relay.mails.find((m) => m.messageId?.includes(data.message_id)), { description: `the mail of ${data.message_id}`, timeoutMs: 20_000 });
    return { messageId: data.message_id, mail };
  };
  const referencesOf = (mail: ParsedMail) => (mail.references === undefined ? [] : Array.isArray(mail.references) ? mail.references : [mail.references]);

  it('a reply answers the customer\'s latest mail and references the thread both ways; the customer\'s answer to it, under a new subject, continues it', async () => {
    const customer = 'ana@example.com';
    await customerWrites(customer, 'Opening hours', { messageId: '<first.1@example.com>' });
    const first = await agentReplies(customer);
    // Ours, stable per message id (the provider id it is recorded with), at the channel's domain.
    expect(first.mail.messageId).toBe(`<${first.messageId}@acme-threads.test>`);
    expect(first.mail.inReplyTo).toBe('<first.1@example.com>');
    expect(referencesOf(first.mail)).toEqual(['<first.1@example.com>']);
    expect(first.mail.subject).toBe('Re: Opening hours');

    await customerWrites(customer, 'Sundays too?', { messageId: '<second.2@example.com>', inReplyTo: first.mail.messageId, references: ['<first.1@example.com>', first.mail.messageId!] });
    const second = await agentReplies(customer);
    expect(second.mail.inReplyTo).toBe('<second.2@example.com>');
    expect(referencesOf(second.mail)).toEqual(['<first.1@example.com>', first.mail.messageId, '<second.2@example.com>']);
    expect(second.mail.subject).toBe('Re: Sundays too?');
  });

  it('a first mail to someone who never wrote starts a thread: no In-Reply-To, no References', async () => {
    const data = { message_id: newId('msg'), channel: 'email' as const, from: null, to: 'bo@example.com', subject: 'Welcome', content: { type: 'text' as const, text: 'Hello.' }, origin: 'api' as const, accepted_at: new Date().toISOString() };
    await publish(Topics.MessageOutbound, `${TENANT}:bo@example.com`, EventPublisher.envelope(Topics.MessageOutbound, TENANT, data));
    const mail = await pollUntil(() => relay.mails.find((m) => m.messageId?.includes(data.message_id)), { description: 'the first mail', timeoutMs: 20_000 });
    expect(mail.inReplyTo).toBeUndefined();
    expect(mail.references).toBeUndefined();
  });

  it('keeps a mail\'s attachments in the media store and its SPF/DKIM results with the stored message', async () => {
    const photo = randomBytes(2048);
    const transport = createTransport({ host: '127.0.0.1', port: service.app.get(SmtpInboundServer).port, secure: false, ignoreTLS: true });
    await transport.sendMail({
      from: 'cy@example.com',
      to: ADDRESS,
      subject: 'The broken part',
      text: 'See the photo.',
      messageId: '<photo.3@example.com>',
      headers: { 'Authentication-Results': 'relay.acme-threads.test; spf=pass smtp.mailfrom=example.com; dkim=fail header.d=example.com; dmarc=none' },
      attachments: [{ filename: 'part.png', content: photo, contentType: 'image/png' }],
    });
    transport.close();
    await pollUntil(() => service.inbound.find((m) => m.value.data.provider_message_id === '<photo.3@example.com>'), { description: 'message.inbound of the mail', timeoutMs: 20_000 });
    const row = await pollUntil(
      async () => {
        const [found] = (await service.sql.query(`SELECT attachments, authentication FROM messages WHERE provider_message_id = $1`, ['<photo.3@example.com>'])) as { attachments: { id: string; mime_type: string; size: number; filename: string }[] | null; authentication: unknown }[];
        return found?.attachments ? found : undefined;
      },
      { description: 'the attachments recorded' },
    );
    expect(row.authentication).toEqual({ spf: 'pass', dkim: 'fail', dmarc: 'none', authserv_id: 'relay.acme-threads.test' });
    expect(row.attachments).toEqual([{ id: expect.stringMatching(/^med_/), mime_type: 'image/png', size: photo.length, filename: 'part.png' }]);
    // The bytes are the tenant's media: the same file back from the store.
    const media = service.app.get(MediaService);
    const stored = await media.get(TENANT, row.attachments![0].id);
    const chunks: Buffer[] = [];
    for await (const chunk of await media.store.get(stored.storage_key)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(photo)).toBe(true);
    // Both are part of the message record (GET /api/v1/messages/{id}).
    const messageId = service.inbound.find((m) => m.value.data.provider_message_id === '<photo.3@example.com>')!.value.data.message_id;
    expect(await service.kafka.rpc.request('messages.get', { tenant_id: TENANT, message_id: messageId })).toMatchObject({ attachments: row.attachments, authentication: row.authentication });
  });
});
