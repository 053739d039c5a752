import { Logger } from '@nestjs/common';
import type { ChannelEntity } from '../channels/channel.entity';
import type { MessageStatusService } from '../messages/message-status.service';
import type { PendingStatusesService } from '../messages/pending-statuses.service';
import type { CachedChannels } from '../sending/cached-channels';
import type { SendAcceptance } from '../sending/send-acceptance.service';
import type { TemplatesService } from '../templates/templates.service';
import type { SmsKeywordsService } from '../sms/sms-keywords.service';
import type { InboundMessagesService, ReceivedInbound } from './inbound-messages.service';
import type { NormalisedInbound } from './normalise';
import { WhatsappWebhookService } from './whatsapp-webhook.service';

const channel = { id: 'chn_1', tenantId: 'ten_1', phoneNumberId: 'pn_1' } as ChannelEntity;
const valid = { from: '16505551234', id: 'wamid.OK', timestamp: '1749416383', type: 'text', text: { body: 'still here' } };

/** Unit scope: the collaborators only record what they were given (their own I/O is covered by integration specs). */
function setUp() {
  const received: NormalisedInbound[] = [];
  const inbound = { receiveMany: jest.fn((items: ReceivedInbound[]) => Promise.resolve(received.push(...items.map((i) => i.inbound)))) };
  const channels = { findByPhoneNumberId: jest.fn(() => Promise.resolve(channel)), findById: jest.fn() };
  const templates = { applyStatusUpdates: jest.fn(() => Promise.resolve()) };
  const service = new WhatsappWebhookService(
    channels as unknown as CachedChannels,
    inbound as unknown as InboundMessagesService,
    {} as MessageStatusService,
    {} as PendingStatusesService,
    {} as SendAcceptance,
    templates as unknown as TemplatesService,
    {} as SmsKeywordsService,
  );
  const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  const process = (value: Record<string, unknown>) =>
    service.process({
      provider: 'meta',
      channel_id: null,
      received_at: '2026-01-01T00:00:00.000Z',
      raw_body: JSON.stringify({ object: 'whatsapp_business_account', entry: [{ changes: [{ field: 'messages', value: { metadata: { phone_number_id: 'pn_1' }, ...value } }] }] }),
    });
  return { received, warn, process, service, templates };
}

describe('WhatsappWebhookService', () => {
  afterEach(() => jest.restoreAllMocks());

  it('hands message_template_status_update changes (WABA-level, no phone number) to the templates', async () => {
    const { service, templates, received } = setUp();
    const value = { event: 'REJECTED', message_template_id: 5551, message_template_name: 'spring_reject', message_template_language: 'en_US', reason: 'INVALID_FORMAT' };
    const raw_body = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: '1029', time: 1, changes: [{ field: 'message_template_status_update', value }] }] });
    await service.process({ provider: 'meta', channel_id: null, received_at: '2026-01-01T00:00:00.000Z', raw_body });
    expect(templates.applyStatusUpdates).toHaveBeenCalledWith(
      [{ wabaId: '1029', providerTemplateId: '5551', name: 'spring_reject', language: 'en_US', event: 'REJECTED', reason: 'INVALID_FORMAT' }],
      undefined,
    );
    expect(received).toEqual([]);
  });

  it.each<[string, Record<string, unknown>]>([
    ['contacts that are not a list', { contacts: { wa_id: '1' }, messages: [valid] }],
    ['a null contact', { contacts: [null], messages: [valid] }],
    ['a caption that is not text beside a valid message', { messages: [{ ...valid, id: 'wamid.IMG', type: 'image', image: { caption: 5 } }, valid] }],
    ['null and non-object items beside a valid message', { messages: [null, 'junk', 3, [], valid] }],
  ])('keeps the valid messages of a change with %s', async (_, value) => {
    const { received, process } = setUp();
    await expect(process(value)).resolves.toBeUndefined();
    expect(received.map((m) => m.providerMessageId)).toContain('wamid.OK');
  });

  it.each<[string, unknown]>([
    ['an object', { 0: valid }],
    ['a string', 'messages'],
  ])('treats messages that are %s as none, without failing the notification', async (_, messages) => {
    const { received, process } = setUp();
    await expect(process({ messages, statuses: [] })).resolves.toBeUndefined();
    expect(received).toEqual([]);
  });

  it('does not fail on changes or entries that are not lists', async () => {
    const service = new WhatsappWebhookService({} as CachedChannels, {} as InboundMessagesService, {} as MessageStatusService, {} as PendingStatusesService, {} as SendAcceptance, {} as TemplatesService, {} as SmsKeywordsService);
    for (const entry of [{ changes: { value: {} } }, null, { changes: [null, 'x'] }]) {
      await expect(service.process({ provider: 'meta', channel_id: null, received_at: '', raw_body: JSON.stringify({ object: 'whatsapp_business_account', entry: [entry] }) })).resolves.toBeUndefined();
    }
  });

  it('stores a text containing NUL without the NUL', async () => {
    const { received, process } = setUp();
    await process({ messages: [{ ...valid, text: { body: 'a\u0000b' } }] });
    expect(received[0]?.text).toBe('ab');
  });

  it('warns once per change for any number of malformed items, with their count and a sample', async () => {
    const { received, warn, process } = setUp();
    const junk = Array.from({ length: 2000 }, (_, i) => ({ junk: i }));
    await process({ messages: [...junk, valid] });
    expect(received.map((m) => m.providerMessageId)).toEqual(['wamid.OK']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('skipping 2000 malformed inbound item(s)');
    expect(warn.mock.calls[0]?.[0]).toContain('{"junk":0}');
  });
});
