import type { EventEnvelope } from './envelope';

export const KNOWLEDGE_GAP_STATES = ['open', 'closed', 'dismissed'] as const;
/** `open` until the owner answers it (`closed`: the answer is an FAQ of the agent) or sets it aside (`dismissed`). */
export type KnowledgeGapState = (typeof KNOWLEDGE_GAP_STATES)[number];

/** Why a customer's question is a gap: the agent said it did not know, gave the conversation up, or was marked wrong. */
export type KnowledgeGapReason = 'not_known' | 'handoff' | 'marked_wrong';

/**
 * A knowledge gap (CONTRACT.md §19): customers' questions the agent could not answer, near-duplicates grouped.
 * `question` is the most common wording; `examples` the distinct wordings, most asked first (at most 10).
 */
export interface KnowledgeGapRecord {
  /** @idPrefix gap */
  id: string;
  /** @apiDescription The agent's name. */
  agent: string;
  /** @apiDescription The most asked wording. */
  question: string;
  /** @apiDescription The distinct wordings, the most asked first (at most 10). */
  examples: string[];
  /**
   * @apiType integer
   * @apiDescription Questions counted in the gap.
   */
  count: number;
  /**
   * The customers' language: a BCP 47 primary tag (`en`, `es`, `pt`, `fr`, `de`).
   * @apiSchema {examples: ['en']}
   */
  language: string;
  last_seen_at: string;
  state: KnowledgeGapState;
  /** The FAQ answer the owner gave (state `closed`), else null. */
  answer: string | null;
  created_at: string;
}

/** `agent.gap_opened` (public webhook body): a question no open gap of the agent held started a new one. */
export interface AgentGapOpenedData {
  event: 'agent.gap_opened';
  tenant_id: string;
  agent: string;
  gap: KnowledgeGapRecord;
  reason: KnowledgeGapReason;
  /** The conversation and customer whose question opened it (null for none). */
  conversation_id: string | null;
  customer: string | null;
  at: string;
}

export type AgentGapOpenedEvent = EventEnvelope<'agent.gap_opened', AgentGapOpenedData>;
