import { Logger } from '@nestjs/common';
import type { LlmKeyOwner } from '@parley/contracts';
import { DateTime } from 'luxon';
import { detectLanguage } from '../knowledge/language';
import { ReplyEngine, composeReply, type Reply, type ReplyRequest, type ReplySource } from '../replies/reply-engine';
import { bookingOf } from '../skills/calendar';
import { unknownQuestion } from '../skills/faq.skill';
import type { SkillRequest } from '../skills/skill';
import { readCitations } from './citations';
import type { RankedPassage } from './knowledge-passage';
import { LlmCallError, type CallBudget, type ChatMessage, type LlmClient } from './openai.client';
import type { KnowledgeRetriever } from './knowledge-retriever';
import type { LlmUsageReporter } from './llm-usage-reporter';
import { ToolSession } from './skill-tools';
import { TenantConcurrency } from './tenant-concurrency';

export interface LlmSettings {
  model: string;
  /** Whose key the client calls with: the global LLM_API_KEY (`platform`) or the tenant's own settings (`tenant`). */
  key: LlmKeyOwner;
  /** The whole reply's budget (retrieval and every round of the tool loop), LLM_TIMEOUT_MS. */
  timeoutMs: number;
  /** Rounds of tool calls a reply may take before it is abandoned, LLM_MAX_TOOL_ROUNDS. */
  maxToolRounds: number;
  /** LLM replies one tenant may have in flight in this process, LLM_MAX_CONCURRENT_PER_TENANT. */
  maxConcurrentPerTenant: number;
}

/** Passages put in the prompt; the model can search for more. */
const PROMPT_PASSAGES = 6;
/** A passage longer than this is cut in the prompt (documents are chunked well below it). */
const PASSAGE_CHARS = 1500;
/** What a source's excerpt shows of its passage. */
const EXCERPT_CHARS = 200;

/**
 * Replies written by an OpenAI-compatible LLM, retrieval first: the agent's knowledge passages that match the message
 * go into the system prompt with their ids, each enabled skill is a set of tools run by the skills' own code
 * (ToolSession), and the model must answer questions about the business only from given passages, citing their ids.
 *
 * Two kinds of fallback:
 * - the LLM fails (time-out, an error status after the client's retries, a refusal, a malformed tool call, the round
 *   cap, an empty answer, the tenant's concurrency cap): the deterministic engine answers, so the customer always
 *   gets exactly one reply;
 * - the answer is unsupported (it cites an id it was not given, or answers a question about the business citing
 *   nothing): the agent says it does not know and offers a person, as the deterministic engine does, never a guess.
 */
export class LlmReplyEngine extends ReplyEngine {
  private readonly logger = new Logger(LlmReplyEngine.name);
  private readonly concurrency: TenantConcurrency;

  constructor(
    private readonly client: LlmClient,
    private readonly fallback: ReplyEngine,
    private readonly retriever: KnowledgeRetriever,
    private readonly settings: LlmSettings,
    private readonly usage: LlmUsageReporter,
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

  private async converse(replyRequest: ReplyRequest): Promise<Reply> {
    const language = detectLanguage(replyRequest.message.text, replyRequest.state.language);
    const request: SkillRequest = { ...replyRequest, language, state: { ...replyRequest.state, language } };
    const budget: CallBudget = {
      signal: AbortSignal.timeout(this.settings.timeoutMs),
      deadline: Date.now() + this.settings.timeoutMs,
      // Every call of this reply (retrieval's embeddings too) is spent on the tenant's behalf.
      onUsage: (model, tokens) => this.usage.report(replyRequest.tenantId, model, tokens, this.settings.key),
    };
    const answersFromKnowledge = request.agent.skills.includes('faq_responder');
    const search = (query: string) => this.retriever.retrieve(query, knowledgeOf(request), language, budget);
    const passages = answersFromKnowledge ? (await search(request.message.text)).slice(0, PROMPT_PASSAGES) : [];
    const session = new ToolSession(request, search, passages);
    const tools = session.tools();
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(request, passages) },
      ...request.conversationHistory.map((t): ChatMessage => (t.role === 'customer' ? { role: 'user', content: t.text } : { role: 'assistant', content: t.text })),
      { role: 'user', content: request.message.text },
    ];
    for (let round = 0; round <= this.settings.maxToolRounds; round++) {
      const { model } = this.settings;
      const message = await this.client.complete({ model, messages, tools }, budget);
      const calls = message.tool_calls ?? [];
      if (calls.length === 0) {
        const content = message.content?.trim();
        if (!content) throw new LlmCallError('the answer is empty', null);
        return this.supported(request, session, content);
      }
      if (round === this.settings.maxToolRounds) break;
      messages.push({ role: 'assistant', content: message.content ?? null, tool_calls: calls });
      for (const call of calls) {
        if (call.type !== 'function') throw new LlmCallError(`malformed tool call: a ${String(call.type)} call`, null);
        const result = await session.call(call.function.name, call.function.arguments);
        messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
      }
      budget.signal.throwIfAborted();
    }
    throw new LlmCallError(`still calling tools after ${this.settings.maxToolRounds} rounds`, null);
  }

  /** The model's answer when its knowledge is supported; else "not known, offer a person". */
  private async supported(request: SkillRequest, session: ToolSession, content: string): Promise<Reply> {
    const { text, cited, unknown } = readCitations(content, new Set(session.given.keys()));
    if (unknown.length > 0) {
      // After a tool acted (a booking, a lead) the run is not trusted as a whole: the skills engine answers instead.
      if (session.acted) throw new LlmCallError(`the answer cites passages it was not given (${unknown.join(', ').slice(0, 200)})`, null);
      this.logger.warn(`LLM reply for tenant ${request.tenantId} cites passages it was not given (${unknown.join(', ').slice(0, 200)}); not known instead`);
      return notKnown(request, session);
    }
    if (!text) throw new LlmCallError('the answer is only citations', null);
    if (cited.length > 0) {
      const sources = cited.map((id) => sourceOf(session.given.get(id)!));
      return replyOf(request, session, text, { ...session.state, unknownStreak: 0, humanOffered: false }, sources);
    }
    // Nothing cited: fine for what needs no knowledge (a greeting, the booking or lead dialogue, a hand-off), not
    // for a question about the business, which the skills engine recognises as one for faq_responder.
    if (session.acted || session.handoff || !(await this.asksAboutTheBusiness(request))) return replyOf(request, session, text, session.state, []);
    this.logger.warn(`LLM reply for tenant ${request.tenantId} answers a question without citing a passage; not known instead`);
    return notKnown(request, session);
  }

  private async asksAboutTheBusiness(request: ReplyRequest): Promise<boolean> {
    if (!request.agent.skills.includes('faq_responder')) return false;
    const plain = await this.fallback.reply(request);
    return plain.skill === 'faq_responder';
  }
}

function knowledgeOf(request: ReplyRequest) {
  return { faqs: request.agent.faqs, documents: request.documents ?? [], instruction: request.agent.instruction };
}

function notKnown(request: SkillRequest, session: ToolSession): Reply {
  const answer = unknownQuestion({ ...request, state: session.state });
  return {
    text: composeReply(request.agent, request.firstReply, answer.text),
    skill: answer.skill,
    handoff: answer.handoff !== undefined,
    ...(answer.handoff ? { handoffReason: answer.handoff } : {}),
    state: answer.state,
    effects: session.effects,
    sources: [],
    notKnown: true,
  };
}

function replyOf(request: ReplyRequest, session: ToolSession, text: string, state: ReplyRequest['state'], sources: ReplySource[]): Reply {
  return {
    text: composeReply(request.agent, request.firstReply, text),
    // The skill of the last tool that acted (a booking made while answering a question is the booking's); else the knowledge's.
    skill: session.acted || sources.length === 0 ? session.skill : 'faq_responder',
    handoff: session.handoff !== null,
    ...(session.handoff ? { handoffReason: session.handoff } : {}),
    state,
    effects: session.effects,
    sources,
  };
}

function sourceOf(passage: RankedPassage): ReplySource {
  const excerpt = passage.text.length <= EXCERPT_CHARS ? passage.text : `${passage.text.slice(0, EXCERPT_CHARS - 1)}…`;
  return { type: passage.type, id: passage.id, title: passage.title, excerpt };
}

/** The tenant's instruction first; then the passages with their ids, and what the platform needs the model to respect. */
export function systemPrompt(request: ReplyRequest, passages: readonly RankedPassage[]): string {
  const { agent, state } = request;
  const zone = bookingOf(agent.booking).timezone;
  const has = (skill: string) => agent.skills.some((s) => s === skill);
  const lines = [
    agent.instruction,
    '',
    `You are "${agent.name}", answering a customer on WhatsApp. Keep replies short and plain text (no markdown). Reply in the customer's language.`,
    `It is now ${DateTime.fromJSDate(request.now, { zone }).toFormat('cccc yyyy-MM-dd HH:mm')} (${zone}).`,
  ];
  if (has('faq_responder')) {
    lines.push(
      'Answer questions about the business only from the knowledge passages below or from search_knowledge, never from anything else you know. ' +
        'Cite the id of every passage you use in square brackets right after what it supports, e.g. "We open at 9 [faq_1]." ' +
        'Cite only ids you were given. When no passage answers, say you do not know and offer to connect a person; never guess.',
      '',
      passages.length > 0 ? 'Knowledge passages:' : 'Knowledge passages: none matches this message.',
      ...passages.map((p) => `[${p.id}] ${p.type} "${p.title}": ${p.text.length <= PASSAGE_CHARS ? p.text : `${p.text.slice(0, PASSAGE_CHARS)}…`}`),
      '',
    );
  } else {
    lines.push('Do not state facts about the business.');
  }
  if (has('lead_capture')) lines.push('When the customer wants to be contacted or gives contact details, save them with save_lead_details and ask for what is missing.');
  if (has('appointment_booking')) lines.push('For appointments, find free times with find_free_slots; call book_appointment only once the customer has confirmed one exact slot.');
  lines.push('If the customer asks for a person, call transfer_to_human.');
  if (state.lead?.facts && Object.keys(state.lead.facts).length > 0) lines.push(`Contact details saved so far: ${JSON.stringify(state.lead.facts)}.`);
  if (state.booking?.booked) lines.push(`This customer has an appointment at ${state.booking.booked}.`);
  if (request.firstReply && agent.greeting.trim()) lines.push(`Your reply is sent after the greeting "${agent.greeting.trim()}"; do not greet again.`);
  return lines.join('\n');
}
