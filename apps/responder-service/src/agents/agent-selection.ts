import type { AgentRecord } from '@parley/contracts';

/**
 * Which agent answers (CONTRACT.md §6): the channel's agent when it exists, else the tenant's oldest agent
 * (ties broken by id, which is time-ordered), else none.
 */
export function selectAgent(channelAgent: string | null, candidates: readonly AgentRecord[]): AgentRecord | null {
  if (channelAgent !== null) {
    const named = candidates.find((a) => a.name === channelAgent);
    if (named) return named;
  }
  let oldest: AgentRecord | null = null;
  for (const agent of candidates) {
    if (!oldest || olderThan(agent, oldest)) oldest = agent;
  }
  return oldest;
}

function olderThan(a: AgentRecord, b: AgentRecord): boolean {
  const at = Date.parse(a.created_at);
  const bt = Date.parse(b.created_at);
  return at !== bt ? at < bt : a.id < b.id;
}
