import { orderingKeyOf } from './ordering-key';

describe('orderingKeyOf: the conversation of a public event', () => {
  it('is the tenant and customer number of message and engagement events, like the producers’ Kafka key', () => {
    expect(orderingKeyOf('ten_1', 'message.received', { from: '+491' })).toBe('ten_1:+491');
    expect(orderingKeyOf('ten_1', 'message.status', { to: '+491' })).toBe('ten_1:+491');
    expect(orderingKeyOf('ten_1', 'conversation.handoff', { customer: '+491' })).toBe('ten_1:+491');
    expect(orderingKeyOf('ten_1', 'contact.opted_out', { customer: '+491' })).toBe('ten_1:+491');
    expect(orderingKeyOf('ten_1', 'contact.opted_in', { customer: '+491' })).toBe('ten_1:+491');
    expect(orderingKeyOf('ten_1', 'appointment.booked', { appointment: { customer: '+491' } })).toBe('ten_1:+491');
    expect(orderingKeyOf('ten_1', 'lead.captured', { lead: { phone: '+491', conversation_id: 'cnv_1' } })).toBe('ten_1:+491');
    expect(orderingKeyOf('ten_1', 'lead.updated', { lead: { phone: '+491', conversation_id: 'cnv_1' } })).toBe('ten_1:+491');
    expect(orderingKeyOf('ten_1', 'appointment.rescheduled', { appointment: { customer: '+491' } })).toBe('ten_1:+491');
    expect(orderingKeyOf('ten_1', 'appointment.cancelled', { appointment: { customer: '+491' } })).toBe('ten_1:+491');
  });

  it('falls back to the conversation id for a lead without a phone', () => {
    expect(orderingKeyOf('ten_1', 'lead.captured', { lead: { phone: null, conversation_id: 'cnv_1' } })).toBe('ten_1:cnv_1');
  });

  it('is the contact for contact events, so one contact\'s created, updated and deleted keep their order', () => {
    expect(orderingKeyOf('ten_1', 'contact.created', { contact: { id: 'ctc_1', phone: '+491' } })).toBe('ten_1:ctc_1');
    expect(orderingKeyOf('ten_1', 'contact.updated', { contact: { id: 'ctc_1', phone: null } })).toBe('ten_1:ctc_1');
    expect(orderingKeyOf('ten_1', 'contact.deleted', { contact_id: 'ctc_1', phone: '+491' })).toBe('ten_1:ctc_1');
  });

  it('is the deal for deal events, so its creation and stage changes keep their order', () => {
    expect(orderingKeyOf('ten_1', 'deal.created', { deal: { id: 'del_1', contact_id: 'ctc_1' } })).toBe('ten_1:del_1');
    expect(orderingKeyOf('ten_1', 'deal.stage_changed', { deal: { id: 'del_1' }, previous_stage: 'new' })).toBe('ten_1:del_1');
  });

  it('is null for events outside a conversation or without the field', () => {
    expect(orderingKeyOf('ten_1', 'webhook.test', { endpoint_id: 'whk_1' })).toBeNull();
    expect(orderingKeyOf('ten_1', 'webhook.endpoint_disabled', { endpoint_id: 'whk_1' })).toBeNull();
    expect(orderingKeyOf('ten_1', 'message.received', { from: 42 })).toBeNull();
    expect(orderingKeyOf('ten_1', 'appointment.booked', { appointment: null })).toBeNull();
  });
});
