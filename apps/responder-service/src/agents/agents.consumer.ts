import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type AgentChangedEvent } from '@parley/contracts';
import { AgentsService } from './agents.service';

/** Keeps the agent read model in step with agent-service. */
@Controller()
export class AgentsConsumer {
  constructor(private readonly agents: AgentsService) {}

  @EventPattern(Topics.AgentChanged)
  async onAgentChanged(@Payload() event: AgentChangedEvent): Promise<void> {
    await this.agents.applyChange(event);
  }
}
