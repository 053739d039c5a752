import { Logger, Module, type DynamicModule } from '@nestjs/common';
import type { LlmKeyOwner } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { rankKnowledge } from '../knowledge/rank-knowledge';
import { EmbeddingReranker } from '../llm/embedding-reranker';
import { KnowledgeRetriever } from '../llm/knowledge-retriever';
import { LlmReplyEngine } from '../llm/llm-reply-engine';
import { LlmUsageReporter } from '../llm/llm-usage-reporter';
import { LlmClient } from '../llm/openai.client';
import { AgentsModule } from '../agents/agents.module';
import { AppointmentsModule } from '../appointments/appointments.module';
import { ResponderServiceConfig } from '../config/responder-service.config';
import { ConversationsModule } from '../conversations/conversations.module';
import { AgentDocumentsModule } from '../documents/agent-documents.module';
import { AnalyticsModule } from '../analytics/analytics.module';
import { GapsModule } from '../gaps/gaps.module';
import { LeadsModule } from '../leads/leads.module';
import { TenantLlms } from '../llm-settings/tenant-llms';
import { TenantReplyEngines } from '../llm/tenant-reply-engines';
import { DeterministicReplyEngine } from './deterministic-reply-engine';
import { PublishedMarks } from './published-marks';
import { RepliesConsumer } from './replies.consumer';
import { RepliesRpcController } from './replies.rpc.controller';
import { RepliesService } from './replies.service';
import { ReplyEngine } from './reply-engine';
import type { Meaning } from '../knowledge/knowledge-match';
import { MEANING } from '../semantics/semantics.module';

/**
 * The reply flow. The engine is chosen per tenant: its own OpenAI-compatible LLM when it has settings (CONTRACT.md §16),
 * else the global one from the config when set, else the skills engine; and the skills engine once a tenant's LLM
 * spend of the month has reached its budget.
 */
@Module({})
export class RepliesModule {
  static forRoot(config: ResponderServiceConfig): DynamicModule {
    return {
      module: RepliesModule,
      imports: [AgentsModule, AgentDocumentsModule, ConversationsModule, LeadsModule, AppointmentsModule, GapsModule, AnalyticsModule],
      controllers: [RepliesConsumer, RepliesRpcController],
      providers: [
        {
          provide: ReplyEngine,
          useFactory: (publisher: EventPublisher, choices: TenantLlms, meaning: Meaning) => replyEngine(config, publisher, choices, meaning),
          inject: [EventPublisher, TenantLlms, MEANING],
        },
        RepliesService,
        PublishedMarks,
      ],
      exports: [RepliesService],
    };
  }
}

function replyEngine(config: ResponderServiceConfig, publisher: EventPublisher, choices: TenantLlms, meaning: Meaning): ReplyEngine {
  const deterministic = new DeterministicReplyEngine(meaning);
  const usage = new LlmUsageReporter(publisher);
  // `key`: whose key pays the calls (llm.usage says it; billing charges the wallet for the platform's only).
  const llmEngine = (endpoint: { baseUrl: string; apiKey: string; model: string; embeddingModel: string; key: LlmKeyOwner }) => {
    const client = new LlmClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, maxRetries: config.LLM_MAX_RETRIES });
    const retriever = new KnowledgeRetriever(rankKnowledge, new EmbeddingReranker(client, endpoint.embeddingModel), meaning);
    return new LlmReplyEngine(client, deterministic, retriever, {
      model: endpoint.model,
      key: endpoint.key,
      timeoutMs: config.LLM_TIMEOUT_MS,
      maxToolRounds: config.LLM_MAX_TOOL_ROUNDS,
      maxConcurrentPerTenant: config.LLM_MAX_CONCURRENT_PER_TENANT,
    }, usage);
  };
  let global: ReplyEngine = deterministic;
  if (config.llmEnabled) {
    new Logger(RepliesModule.name).log(`replies come from the LLM ${config.LLM_MODEL} at ${new URL(config.LLM_BASE_URL).origin} unless a tenant has its own, with the skills engine as fallback`);
    global = llmEngine({ baseUrl: config.LLM_BASE_URL, apiKey: config.LLM_API_KEY, model: config.LLM_MODEL, embeddingModel: config.LLM_EMBEDDING_MODEL || config.LLM_MODEL, key: 'platform' });
  }
  // A tenant's settings name one model: it is asked for embeddings too (a server without them leaves retrieval lexical).
  return new TenantReplyEngines(choices, global, deterministic, (llm) => llmEngine({ ...llm, embeddingModel: llm.model, key: 'tenant' }));
}
