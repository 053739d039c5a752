import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AppointmentsModule } from '../appointments/appointments.module';
import { ResponderServiceConfig } from '../config/responder-service.config';
import { ConversationsModule } from '../conversations/conversations.module';
import { LeadsModule } from '../leads/leads.module';
import { DeterministicReplyEngine } from './deterministic-reply-engine';
import { RepliesConsumer } from './replies.consumer';
import { RepliesRpcController } from './replies.rpc.controller';
import { RepliesService } from './replies.service';
import { ReplyEngine } from './reply-engine';

/** The reply flow. The engine is chosen from the config: the LLM engine (not built yet) plugs in here. */
@Module({})
export class RepliesModule {
  static forRoot(config: ResponderServiceConfig): DynamicModule {
    return {
      module: RepliesModule,
      imports: [AgentsModule, ConversationsModule, LeadsModule, AppointmentsModule],
      controllers: [RepliesConsumer, RepliesRpcController],
      providers: [
        { provide: ReplyEngine, useFactory: () => replyEngine(config) },
        RepliesService,
      ],
    };
  }
}

/** The deterministic skills engine until the LLM engine exists; then `config.llmEnabled` selects it here. */
function replyEngine(config: ResponderServiceConfig): ReplyEngine {
  if (config.llmEnabled) {
    new Logger(RepliesModule.name).warn('LLM_BASE_URL and LLM_MODEL are set, but the LLM engine is not built yet: replies stay deterministic');
  }
  return new DeterministicReplyEngine();
}
