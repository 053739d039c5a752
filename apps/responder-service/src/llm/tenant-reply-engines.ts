import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { TenantLlm } from '../llm-settings/llm-settings.service';
import type { TenantLlms } from '../llm-settings/tenant-llms';
import { ReplyEngine, type Reply, type ReplyRequest } from '../replies/reply-engine';

/** Tenants' own engines kept at once (the least recently built goes first). */
const MAX_ENGINES = 1_000;

/**
 * Answers each tenant with the LLM its settings name (CONTRACT.md §16): its own (one engine per tenant, kept while its
 * base URL, model and key stay the same), the global one when it has none, and the skills engine without any LLM
 * call once its LLM spend of the month has reached its budget.
 */
export class TenantReplyEngines extends ReplyEngine {
  private readonly logger = new Logger(TenantReplyEngines.name);
  private readonly own = new Map<string, { fingerprint: string; engine: ReplyEngine }>();

  constructor(
    private readonly choices: TenantLlms,
    private readonly global: ReplyEngine,
    private readonly withoutLlm: ReplyEngine,
    private readonly engineOf: (llm: TenantLlm) => ReplyEngine,
  ) {
    super();
  }

  override async answersAtOnceFor(tenantId: string): Promise<boolean> {
    const choice = await this.choices.choose(tenantId);
    return choice.kind === 'global' ? this.global.answersAtOnce : choice.kind === 'over_budget' ? this.withoutLlm.answersAtOnce : false;
  }

  async reply(request: ReplyRequest): Promise<Reply> {
    const choice = await this.choices.choose(request.tenantId, request.now);
    if (choice.kind !== 'own') this.own.delete(request.tenantId);
    if (choice.kind === 'global') return this.global.reply(request);
    if (choice.kind === 'over_budget') {
      this.logger.debug(`tenant ${request.tenantId} has spent its monthly LLM budget; the skills engine answers`);
      return this.withoutLlm.reply(request);
    }
    return this.engineFor(request.tenantId, choice.llm).reply(request);
  }

  private engineFor(tenantId: string, llm: TenantLlm): ReplyEngine {
    const fingerprint = createHash('sha256').update(JSON.stringify([llm.baseUrl, llm.model, llm.apiKey])).digest('base64url');
    const kept = this.own.get(tenantId);
    if (kept?.fingerprint === fingerprint) return kept.engine;
    this.own.delete(tenantId);
    if (this.own.size >= MAX_ENGINES) this.own.delete(this.own.keys().next().value!);
    const engine = this.engineOf(llm);
    this.own.set(tenantId, { fingerprint, engine });
    return engine;
  }
}
