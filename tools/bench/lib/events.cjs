'use strict';
// Events the benchmarks publish as the services would.
const { dist } = require('../../dev/lib/platform.cjs');

/** A message.received envelope as responder-service publishes it (unanswered), and its key: the conversation's. */
function messageReceived(tenantId, from, message) {
  const { EventPublisher } = dist('kafka');
  const { Topics, conversationKey, newId } = dist('contracts');
  const data = {
    event: 'message.received',
    channel: 'whatsapp',
    from,
    message,
    tenant_id: tenantId,
    agent_response: null,
    message_id: newId('msg'),
    reply_message_id: null,
    agent: null,
    type: 'text',
    received_at: new Date().toISOString(),
  };
  return { envelope: EventPublisher.envelope(Topics.MessageReceived, tenantId, data), key: conversationKey(tenantId, from) };
}

module.exports = { messageReceived };
