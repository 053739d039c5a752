import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type LlmSpendEvent } from '@parley/contracts';
import { MalformedEventError } from '../common/malformed-event.error';
import { LlmSettingsService } from './llm-settings.service';
import { TenantLlms } from './tenant-llms';

/** `llm.spend` from billing-service: the tenant's LLM spend of the month, held against its budget from the next message. */
@Controller()
export class LlmSpendConsumer {
  constructor(
    private readonly settings: LlmSettingsService,
    private readonly choices: TenantLlms,
  ) {}

  @EventPattern(Topics.LlmSpend)
  async onSpend(@Payload() event: LlmSpendEvent): Promise<void> {
    const { data } = event;
    if (!event.tenant_id || data?.tenant_id !== event.tenant_id) throw new MalformedEventError(Topics.LlmSpend, 'data.tenant_id must be the envelope tenant_id');
    if (!/^\d{4}-\d{2}$/.test(data.month) || !/^\d{1,14}(\.\d{1,6})?$/.test(data.spend)) throw new MalformedEventError(Topics.LlmSpend, 'data.month must be YYYY-MM and data.spend a decimal string');
    await this.settings.recordSpend(data);
    this.choices.forget(data.tenant_id);
  }
}
