import { Logger, Module, type DynamicModule } from '@nestjs/common';
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
import { LeadsModule } from '../leads/leads.module';
import { DeterministicReplyEngine } from './deterministic-reply-engine';
import { PublishedMarks } from './published-marks';
import { RepliesConsumer } from './replies.consumer';
import { RepliesRpcController } from './replies.rpc.controller';
import { RepliesService } from './replies.service';
import { ReplyEngine } from './reply-engine';

/** The reply flow. The engine is chosen from the config: an OpenAI-compatible LLM when one is set, else the skills engine. */
@Module({})
export class RepliesModule {
  static forRoot(config: ResponderServiceConfig): DynamicModule {
    return {
      module: RepliesModule,
      imports: [AgentsModule, AgentDocumentsModule, ConversationsModule, LeadsModule, AppointmentsModule],
      controllers: [RepliesConsumer, RepliesRpcController],
      providers: [
        { provide: ReplyEngine, useFactory: (publisher: EventPublisher) => replyEngine(config, publisher), inject: [EventPublisher] },
        RepliesService,
        PublishedMarks,
      ],
    };
  }
}

/** The LLM engine (falling back to the skills engine) when LLM_BASE_URL and LLM_MODEL are set; else the skills engine alone. */
function replyEngine(config: ResponderServiceConfig, publisher: EventPublisher): ReplyEngine {
  const deterministic = new DeterministicReplyEngine();
  if (!config.llmEnabled) return deterministic;
  new Logger(RepliesModule.name).log(`replies come from the LLM ${config.LLM_MODEL} at ${new URL(config.LLM_BASE_URL).origin}, with the skills engine as fallback`);
  const client = new LlmClient({ baseUrl: config.LLM_BASE_URL, apiKey: config.LLM_API_KEY, maxRetries: config.LLM_MAX_RETRIES });
  const retriever = new KnowledgeRetriever(rankKnowledge, new EmbeddingReranker(client, config.LLM_EMBEDDING_MODEL || config.LLM_MODEL));
  return new LlmReplyEngine(client, deterministic, retriever, {
    model: config.LLM_MODEL,
    timeoutMs: config.LLM_TIMEOUT_MS,
    maxToolRounds: config.LLM_MAX_TOOL_ROUNDS,
    maxConcurrentPerTenant: config.LLM_MAX_CONCURRENT_PER_TENANT,
  }, new LlmUsageReporter(publisher));
}
