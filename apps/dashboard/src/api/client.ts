import type { ParleyClient, paths } from '@parley/api-client';
import { createAgentTestsApi } from './agent-tests';
import { createBillingApi } from './billing';
import { createCampaignsApi } from './campaigns';
import { createCannedRepliesApi } from './canned-replies';
import { createChannelsApi } from './channels';
import { createContactsApi } from './contacts';
import { unwrap } from './http';
import { createInboxApi } from './inbox';
import { createKnowledgeGapsApi } from './knowledge-gaps';
import { createReportsApi } from './reports';
import { createTeamApi } from './team';
import { createTeamsApi } from './teams';
import { createTemplatesApi } from './templates';
import type { AgentBody, ConnectChannelBody, DocumentRefresh, PlaygroundWrite, WebhookEventType } from './types';

/** A webhook delivery's state, as the deliveries list filters it. */
type DeliveryStatus = NonNullable<NonNullable<paths['/api/v1/webhooks/{id}/deliveries']['get']['parameters']['query']>['status']>;
const LIST = { limit: 100 };

/**
 * Every call the dashboard makes to the gateway, one method per route, through the typed client tenants use
 * (`@parley/api-client`). Pages use only this; each method answers the body or throws an ApiError.
 */
export function createDashboardApi(api: ParleyClient) {
  return {
    ...createTeamApi(api),
    ...createTeamsApi(api),
    ...createInboxApi(api),
    ...createTemplatesApi(api),
    ...createCampaignsApi(api),
    ...createContactsApi(api),
    ...createBillingApi(api),
    ...createCannedRepliesApi(api),
    ...createChannelsApi(api),
    ...createKnowledgeGapsApi(api),
    ...createAgentTestsApi(api),
    ...createReportsApi(api),

    // accounts and credentials (no session yet: these make or take the credential)
    signUp: (name: string, email?: string) => unwrap(api.POST('/api/v1/accounts', { body: email ? { name, email } : { name } })),
    exchangeClientCredentials: (client_id: string, client_secret: string) =>
      unwrap(api.POST('/oauth/token', { body: { grant_type: 'client_credentials', client_id, client_secret } })),
    /** Checks a credential before keeping it (any authenticated read would do; usage is the cheapest). */
    usageWith: (token: string) => unwrap(api.GET('/api/v1/usage', { headers: { authorization: `Bearer ${token}` } })),

    // WhatsApp channels
    listChannels: () => unwrap(api.GET('/api/v1/channels', { params: { query: LIST } })),
    connectChannel: (body: ConnectChannelBody) => unwrap(api.POST('/api/v1/channels/whatsapp', { body })),
    embeddedSignup: (body: { code: string; waba_id: string; phone_number_id: string }) => unwrap(api.POST('/api/v1/channels/whatsapp/embedded-signup', { body })),
    updateChannel: (channel_id: string, body: { agent?: string | null }) => unwrap(api.PATCH('/api/v1/channels/{channel_id}', { params: { path: { channel_id } }, body })),
    disconnectChannel: (channel_id: string) => unwrap(api.DELETE('/api/v1/channels/{channel_id}', { params: { path: { channel_id } } })),

    // agents
    listAgents: () => unwrap(api.GET('/api/v1/agents', { params: { query: LIST } })),
    putAgent: (body: AgentBody) => unwrap(api.PUT('/api/v1/agents/{agent_name}', { params: { path: { agent_name: body.name } }, body })),
    deleteAgent: (agent_name: string) => unwrap(api.DELETE('/api/v1/agents/{agent_name}', { params: { path: { agent_name } } })),
    agentVersions: (agent_name: string) => unwrap(api.GET('/api/v1/agents/{agent_name}/versions', { params: { path: { agent_name }, query: LIST } })),
    agentVersion: (agent_name: string, version: number) =>
      unwrap(api.GET('/api/v1/agents/{agent_name}/versions/{version}', { params: { path: { agent_name, version: String(version) } } })),
    testAgent: (agent_name: string, message: string) => unwrap(api.POST('/api/v1/agents/{agent_name}/test', { params: { path: { agent_name } }, body: { message } })),

    // an agent's documents (its knowledge beside the FAQs)
    listDocuments: (agent_name: string) => unwrap(api.GET('/api/v1/agents/{agent_name}/documents', { params: { path: { agent_name }, query: LIST } })),
    addTextDocument: (agent_name: string, title: string, text: string) =>
      unwrap(api.POST('/api/v1/agents/{agent_name}/documents', { params: { path: { agent_name } }, body: { title, text } })),
    /** A web page, fetched again on `refresh`'s schedule (`off`: only now). */
    addUrlDocument: (agent_name: string, url: string, refresh: DocumentRefresh, title?: string) =>
      unwrap(api.POST('/api/v1/agents/{agent_name}/documents', { params: { path: { agent_name } }, body: title ? { title, url, refresh } : { url, refresh } })),
    /** A file as multipart/form-data (the browser sets the boundary); `type` is one the API reads. */
    uploadDocument: (agent_name: string, file: Blob, filename: string, title?: string) => {
      const form = new FormData();
      if (title) form.append('title', title);
      form.append('file', file, filename);
      return unwrap(api.POST('/api/v1/agents/{agent_name}/documents', { params: { path: { agent_name } }, body: form as never, bodySerializer: (body: unknown) => body as FormData }));
    },
    deleteDocument: (agent_name: string, document_id: string) =>
      unwrap(api.DELETE('/api/v1/agents/{agent_name}/documents/{document_id}', { params: { path: { agent_name, document_id } } })),

    // settings → webhooks
    listWebhooks: () => unwrap(api.GET('/api/v1/webhooks', { params: { query: LIST } })),
    createWebhook: (body: { url: string; description?: string; events?: WebhookEventType[] }) => unwrap(api.POST('/api/v1/webhooks', { body })),
    updateWebhook: (id: string, body: { enabled?: boolean; url?: string; description?: string; events?: WebhookEventType[] }) => unwrap(api.PATCH('/api/v1/webhooks/{id}', { params: { path: { id } }, body })),
    deleteWebhook: (id: string) => unwrap(api.DELETE('/api/v1/webhooks/{id}', { params: { path: { id } } })),
    webhookSecret: (id: string) => unwrap(api.GET('/api/v1/webhooks/{id}/secret', { params: { path: { id } } })),
    rotateWebhookSecret: (id: string) => unwrap(api.POST('/api/v1/webhooks/{id}/rotate-secret', { params: { path: { id } } })),
    testWebhook: (id: string) => unwrap(api.POST('/api/v1/webhooks/{id}/test', { params: { path: { id } } })),
    deliveries: (id: string, status?: DeliveryStatus) => unwrap(api.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: { status, limit: 50 } } })),
    delivery: (id: string, delivery_id: string) => unwrap(api.GET('/api/v1/webhooks/{id}/deliveries/{delivery_id}', { params: { path: { id, delivery_id } } })),
    retryDelivery: (id: string, delivery_id: string) => unwrap(api.POST('/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry', { params: { path: { id, delivery_id } } })),
    replayWebhook: (id: string, since: string) => unwrap(api.POST('/api/v1/webhooks/{id}/replay', { params: { path: { id } }, body: { since } })),

    // API keys
    listApiKeys: () => unwrap(api.GET('/api/v1/api-keys', { params: { query: LIST } })),
    createApiKey: (name?: string) => unwrap(api.POST('/api/v1/api-keys', { body: name ? { name } : {} })),
    revokeApiKey: (id: string) => unwrap(api.DELETE('/api/v1/api-keys/{id}', { params: { path: { id } } })),

    // messages and conversations
    send: (body: { to: string; message: string; from?: string }) => unwrap(api.POST('/v1/send', { body: { channel: 'whatsapp', ...body } })),
    listMessages: (query: { direction?: 'outbound' | 'inbound' } = {}) => unwrap(api.GET('/api/v1/messages', { params: { query: { ...query, limit: 50 } } })),
    listConversations: () => unwrap(api.GET('/api/v1/conversations', { params: { query: { limit: 50 } } })),
    getConversation: (id: string) => unwrap(api.GET('/api/v1/conversations/{id}', { params: { path: { id } } })),
    releaseConversation: (id: string) => unwrap(api.POST('/api/v1/conversations/{id}/release', { params: { path: { id } } })),
    listLeads: () => unwrap(api.GET('/api/v1/leads', { params: { query: { limit: 50 } } })),
    listAppointments: () => unwrap(api.GET('/api/v1/appointments', { params: { query: { limit: 50 } } })),

    // usage
    usage: () => unwrap(api.GET('/api/v1/usage')),

    // playground (development: the gateway relays to the WhatsApp sandbox; its answers are the sandbox's own shapes)
    /** A text, or a photo (CONTRACT.md §13); `queued` in the answer: the platform did not take it yet, the sandbox keeps delivering it. */
    playgroundWrite: (body: PlaygroundWrite) => unwrap(api.POST('/api/v1/playground/inbound', { body })),
    playgroundMessages: (customer: string) => unwrap(api.GET('/api/v1/playground/messages', { params: { query: { customer } } })),
  };
}

export type DashboardApi = ReturnType<typeof createDashboardApi>;

