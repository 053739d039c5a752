import { Logger } from '@nestjs/common';
import { DateTime } from 'luxon';
import { ReplyEngine, composeReply, type Reply, type ReplyRequest } from '../replies/reply-engine';
import { bookingOf } from '../skills/calendar';
import { LlmCallError, type ChatCompletionsClient, type ChatMessage } from './chat-completions.client';
import { ToolSession } from './skill-tools';
import { TenantConcurrency } from './tenant-concurrency';

export interface LlmSettings {
  model: string;
  /** The whole reply's budget (every round of the tool loop), LLM_TIMEOUT_MS. */
  timeoutMs: number;
  /** Rounds of tool calls a reply may take before it is abandoned, LLM_MAX_TOOL_ROUNDS. */
  maxToolRounds: number;
  /** LLM replies one tenant may have in flight in this process, LLM_MAX_CONCURRENT_PER_TENANT. */
  maxConcurrentPerTenant: number;
}

/**
 * Replies written by an OpenAI-compatible LLM: the agent's instruction is the system prompt, the conversation memory
 * the messages, and each enabled skill a set of tools run by the skills' own code (ToolSession). The tool loop is
 * bounded in rounds and time; whatever goes wrong (time-out, an error answer, the round cap, an empty answer, the
 * tenant's concurrency cap) the deterministic engine answers instead, so the customer always gets exactly one reply.
 */
export class LlmReplyEngine extends ReplyEngine {
  private readonly logger = new Logger(LlmReplyEngine.name);
  private readonly concurrency: TenantConcurrency;

  constructor(
    private readonly client: ChatCompletionsClient,
    private readonly fallback: ReplyEngine,
    private readonly settings: LlmSettings,
  ) {
    super();
    this.concurrency = new TenantConcurrency(settings.maxConcurrentPerTenant);
  }

  async reply(request: ReplyRequest): Promise<Reply> {
    const release = this.concurrency.tryAcquire(request.tenantId);
    if (!release) {
      this.logger.warn(`tenant ${request.tenantId} has ${this.settings.maxConcurrentPerTenant} LLM replies in flight; the skills engine answers`);
      return this.fallback.reply(request);
    }
    try {
      return await this.converse(request);
    } catch (err) {
      const why = err instanceof LlmCallError ? err.message : `${(err as Error)?.name}: ${(err as Error)?.message}`;
      this.logger.warn(`LLM reply for tenant ${request.tenantId} failed (${why}); the skills engine answers`);
      return this.fallback.reply(request);
    } finally {
      release();
    }
  }

  private async converse(request: ReplyRequest): Promise<Reply> {
    const session = new ToolSession(request);
    const tools = session.tools();
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(request) },
      ...request.conversationHistory.map((t): ChatMessage => (t.role === 'customer' ? { role: 'user', content: t.text } : { role: 'assistant', content: t.text })),
      { role: 'user', content: request.message.text },
    ];
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    for (let round = 0; round <= this.settings.maxToolRounds; round++) {
      const response = await this.client.complete({ model: this.settings.model, messages, tools, tool_choice: 'auto', temperature: 0.2 }, signal);
      const message = response.choices[0].message;
      const calls = message.tool_calls ?? [];
      if (calls.length === 0) {
        const content = message.content?.trim();
        if (!content) throw new LlmCallError('the answer is empty', null);
        return replyOf(request, session, content);
      }
      if (round === this.settings.maxToolRounds) break;
      messages.push({ role: 'assistant', content: message.content ?? null, tool_calls: calls });
      for (const call of calls) {
        const result = await session.call(call.function?.name ?? '', call.function?.arguments ?? '');
        messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
      }
      signal.throwIfAborted();
    }
    throw new LlmCallError(`still calling tools after ${this.settings.maxToolRounds} rounds`, null);
  }
}

function replyOf(request: ReplyRequest, session: ToolSession, content: string): Reply {
  return {
    text: composeReply(request.agent, request.firstReply, content),
    skill: session.skill,
    handoff: session.handoff !== null,
    ...(session.handoff ? { handoffReason: session.handoff } : {}),
    state: session.state,
    effects: session.effects,
  };
}

/** The tenant's instruction first; then what the platform needs the model to respect. */
export function systemPrompt(request: ReplyRequest): string {
  const { agent, state } = request;
  const zone = bookingOf(agent.booking).timezone;
  const has = (skill: string) => agent.skills.some((s) => s === skill);
  const lines = [
    agent.instruction,
    '',
    `You are "${agent.name}", answering a customer on WhatsApp. Keep replies short and plain text (no markdown).`,
    `It is now ${DateTime.fromJSDate(request.now, { zone }).toFormat('cccc yyyy-MM-dd HH:mm')} (${zone}).`,
    has('faq_responder')
      ? 'Answer questions about the business only from search_faqs. When it finds nothing, say you do not know and offer to connect a person; never guess.'
      : 'Do not make up facts about the business.',
    ...(has('lead_capture') ? ['When the customer wants to be contacted or gives contact details, save them with save_lead_details and ask for what is missing.'] : []),
    ...(has('appointment_booking')
      ? ['For appointments, find free times with find_free_slots; call book_appointment only once the customer has confirmed one exact slot.']
      : []),
    'If the customer asks for a person, call transfer_to_human.',
  ];
  if (state.lead?.facts && Object.keys(state.lead.facts).length > 0) lines.push(`Contact details saved so far: ${JSON.stringify(state.lead.facts)}.`);
  if (state.booking?.booked) lines.push(`This customer has an appointment at ${state.booking.booked}.`);
  if (request.firstReply && agent.greeting.trim()) lines.push(`Your reply is sent after the greeting "${agent.greeting.trim()}"; do not greet again.`);
  return lines.join('\n');
}
