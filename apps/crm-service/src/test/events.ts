import { Topics, newId, type ContactOptedOutData, type LeadCapturedData, type LeadRecord, type MessageInboundData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';

/** A message.inbound as messaging-service publishes it, from `from`. */
export function messageInbound(tenantId: string, from: string, contactName: string | null = null) {
  const now = new Date().toISOString();
  const data: MessageInboundData = {
    message_id: newId('msg'),
    channel: 'whatsapp',
    channel_id: newId('chn'),
    from,
    from_user_id: null,
    to: '+14155550000',
    type: 'text',
    text: 'Hello',
    provider_message_id: `wamid.${newId('evt')}`,
    sent_at: now,
    received_at: now,
    channel_agent: null,
    contact_name: contactName,
  };
  return EventPublisher.envelope(Topics.MessageInbound, tenantId, data);
}

/** A lead.captured as responder-service publishes it. */
export function leadCaptured(tenantId: string, lead: Partial<LeadRecord>) {
  const data: LeadCapturedData = {
    event: 'lead.captured',
    tenant_id: tenantId,
    channel: 'whatsapp',
    agent: null,
    lead: { id: newId('led'), name: null, email: null, phone: null, interest: null, conversation_id: newId('cnv'), created_at: new Date().toISOString(), ...lead },
    at: new Date().toISOString(),
  };
  return EventPublisher.envelope(Topics.LeadCaptured, tenantId, data);
}

/** A contact.opted_out (or, with `event`, opted_in) as responder-service publishes it. */
export function optChange(tenantId: string, customer: string, event: 'contact.opted_out' | 'contact.opted_in', at = new Date()) {
  const data = { event, tenant_id: tenantId, channel: 'whatsapp', customer, message_id: newId('msg'), keyword: event === 'contact.opted_out' ? 'STOP' : 'START', at: at.toISOString() };
  return EventPublisher.envelope(event, tenantId, data as ContactOptedOutData);
}
