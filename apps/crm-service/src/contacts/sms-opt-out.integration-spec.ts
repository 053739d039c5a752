import { EventPublisher } from '@parley/kafka';
import { newId, type ContactOptedOutData } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { optChange } from '../test/events';
import { startCrmService, type CrmServiceUnderTest } from '../test/crm-service-under-test';

/** A carrier STOP on an SMS number opts the number out of SMS only: WhatsApp campaigns still reach the contact. */
describe('crm-service: an SMS STOP is not a WhatsApp opt-out', () => {
  let crm: CrmServiceUnderTest;

  beforeAll(async () => {
    crm = await startCrmService('crmsmsoptout');
  });

  afterAll(async () => {
    await crm?.close();
  });

  it('leaves the contact opted in (and in the audience count) after an SMS STOP; a WhatsApp STOP still opts out', async () => {
    const t = newId('ten');
    const ana = await crm.call('contacts.create', { tenant_id: t, body: { name: 'Ana', phone: '+14155550301', tags: ['vip'] } });
    const sms = { ...optChange(t, '+14155550301', 'contact.opted_out').data, channel: 'sms' } as ContactOptedOutData;
    await crm.publish({ envelope: EventPublisher.envelope('contact.opted_out', t, sms), key: `${t}:+14155550301` });
    // Published after it on the same key, so consumed after it: once Bea is opted out, Ana's SMS STOP was handled.
    await crm.publish({ envelope: optChange(t, '+14155550302', 'contact.opted_out'), key: `${t}:+14155550301` });
    await pollUntil(async () => ((await crm.call('contacts.list', { tenant_id: t, limit: 10, cursor: null, opted_out: true })).data.length === 1 || undefined), {
      description: 'the WhatsApp STOP applied',
    });

    expect(await crm.call('contacts.get', { tenant_id: t, id: ana.id })).toMatchObject({ opted_out: false });
    expect(await crm.call('contacts.audience-count', { tenant_id: t, audience: { tags: ['vip'] } })).toEqual({ count: 1, opted_out: 0 });

    await crm.publish({ envelope: optChange(t, '+14155550301', 'contact.opted_out'), key: `${t}:+14155550301` });
    await pollUntil(async () => (await crm.call('contacts.get', { tenant_id: t, id: ana.id })).opted_out || undefined, { description: 'Ana opted out on WhatsApp' });
  });
});
