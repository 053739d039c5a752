import type { ParleyClient, components } from '@parley/api-client';
import { unwrap } from './http';

// The agent improvement loop (CONTRACT.md §19): what the AI agent could not answer, grouped, for the owner to answer
// once; and what its replies did.

export type KnowledgeGap = components['schemas']['KnowledgeGap'];
export type AgentAnalytics = components['schemas']['AgentAnalytics'];

export function createKnowledgeGapsApi(api: ParleyClient) {
  const path = (agent_name: string) => ({ path: { agent_name } });
  return {
    /** Open gaps, the most recently asked first. */
    listGaps: (agent_name: string) => unwrap(api.GET('/api/v1/agents/{agent_name}/gaps', { params: { ...path(agent_name), query: { limit: 100 } } })),
    answerGap: (agent_name: string, id: string, answer: string) =>
      unwrap(api.POST('/api/v1/agents/{agent_name}/gaps/{id}/answer', { params: { path: { agent_name, id } }, body: { answer } })),
    dismissGap: (agent_name: string, id: string) => unwrap(api.POST('/api/v1/agents/{agent_name}/gaps/{id}/dismiss', { params: { path: { agent_name, id } } })),
    /** The last 30 days of the agent's replies, counted in the viewer's time zone. */
    agentAnalytics: (agent_name: string, tz: string) => unwrap(api.GET('/api/v1/agents/{agent_name}/analytics', { params: { path: { agent_name }, query: { tz } } })),
    /** A verdict on an agent reply in the inbox; `wrong` makes its question a gap. */
    markReply: (conversation: string, message_id: string, verdict: 'right' | 'wrong') =>
      unwrap(api.POST('/api/v1/conversations/{id}/messages/{message_id}/feedback', { params: { path: { id: conversation, message_id } }, body: { verdict } })),
  };
}
