import { Logger } from '@nestjs/common';
import { Topics, type LlmKeyOwner, type LlmUsageData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import type { TokenUsage } from './openai.client';

/**
 * Tells billing the tokens each LLM call used (`llm.usage`, CONTRACT.md §16). Each call is its own event with its own
 * id, which billing meters once however often Kafka redelivers it. The reply never waits on, or fails for, billing:
 * a publish the broker does not acknowledge (after the publisher's retries) is logged with its numbers. Each event says
 * whose key served the call (`key`): billing charges the wallet for the platform's key only, and counts both towards
 * the tenant's LLM budget.
 */
export class LlmUsageReporter {
  private readonly logger = new Logger(LlmUsageReporter.name);

  constructor(private readonly publisher: EventPublisher) {}

  report(tenantId: string, model: string, usage: TokenUsage, key: LlmKeyOwner): void {
    const data: LlmUsageData = { tenant_id: tenantId, model, ...usage, key, at: new Date().toISOString() };
    this.publisher
      .publishEvent(EventPublisher.envelope(Topics.LlmUsage, tenantId, data), tenantId)
      .catch((err: Error) => this.logger.error(`llm.usage not published for tenant ${tenantId} (${model}, ${usage.total_tokens} tokens): ${err.message}`));
  }
}
