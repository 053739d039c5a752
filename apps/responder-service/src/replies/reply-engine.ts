import type { AgentRecord, InboundMessageType } from '@parley/contracts';

/** WhatsApp's limit on a text message's body. */
export const MAX_REPLY_CHARS = 4096;

export interface ConversationTurn {
  role: 'customer' | 'agent';
  text: string;
  at: string;
}

export interface ReplyRequest {
  agent: AgentRecord;
  /** Earlier turns of this conversation, oldest first (bounded memory; the message answered is not in it). */
  conversationHistory: ConversationTurn[];
  /** The agent has not replied in this conversation yet: the reply then opens with the agent's greeting. */
  firstReply: boolean;
  message: { text: string; type: InboundMessageType; contactName: string | null };
}

export interface Reply {
  text: string;
  /** The skill that produced the answer, or null for a general answer. */
  skill: string | null;
  /** The agent hands the conversation to a human: it stays silent until released. */
  handoff: boolean;
}

/**
 * What produces the agent's reply. The deterministic engine is the foundation; the skills engine and the
 * OpenAI-compatible LLM (when LLM_BASE_URL is set) plug in here without the reply flow changing.
 *
 * An abstract class rather than an interface so that it can be the Nest injection token.
 */
export abstract class ReplyEngine {
  abstract reply(request: ReplyRequest): Promise<Reply>;
}

/** Applies the conversation rule every engine shares: the first reply opens with the greeting. Capped to one message. */
export function composeReply(agent: AgentRecord, firstReply: boolean, answer: string): string {
  const greeting = agent.greeting.trim();
  const text = firstReply && greeting ? `${greeting}\n\n${answer}` : answer;
  return text.length <= MAX_REPLY_CHARS ? text : `${text.slice(0, MAX_REPLY_CHARS - 1)}…`;
}
