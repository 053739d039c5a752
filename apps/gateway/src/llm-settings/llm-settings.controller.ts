import { Body, Controller, Delete, Get, HttpCode, Put } from '@nestjs/common';
import type { LlmSettingsInUse, LlmSettingsRecord } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { Requires } from '../identity/auth/permissions';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';

const LLM_SETTINGS_BODY = {
  type: 'object' as const,
  properties: {
    base_url: { type: 'string' as const, format: 'uri', description: 'OpenAI-compatible endpoint including `/v1`, http(s).' },
    api_key: { type: 'string' as const, minLength: 1, maxLength: 500, description: 'Stored encrypted; never returned.' },
    model: { type: 'string' as const, minLength: 1, maxLength: 200 },
    monthly_budget: { type: 'string' as const, pattern: '^\\d{1,12}(\\.\\d{1,6})?$', description: 'Decimal string ≥ 0.' },
  },
  required: ['base_url', 'api_key', 'model', 'monthly_budget'],
};

/** A tenant's own LLM (issue 23 item 7), kept by responder-service; the key goes in and never comes out. */
@Controller('api/v1/settings/llm')
@Requires('settings.manage')
export class LlmSettingsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'Use the tenant’s own OpenAI-compatible LLM',
    access: 'tenant',
    body: { schema: LLM_SETTINGS_BODY, contentTypes: ['application/json'] },
    success: { status: 200, description: 'The settings, without the key.', schema: 'LlmSettings' },
  })
  @Put()
  @HttpCode(200)
  put(@Tenant() tenantId: string, @Body() body: Record<string, unknown>, @RequestId() requestId: string): Promise<LlmSettingsRecord> {
    return this.rpc.request('llm-settings.put', { tenant_id: tenantId, settings: body ?? {} }, { requestId });
  }

  @ApiRoute({
    summary: 'Which LLM the tenant’s agents use: its own settings (without the key), or the platform’s',
    description: 'Without settings of its own the tenant uses the global LLM: `{source: "platform"}` (not an error: the dashboard asks on every Billing visit).',
    access: 'tenant',
    success: { status: 200, description: 'The LLM in use.', schema: 'LlmSettingsInUse' },
  })
  @Get()
  async get(@Tenant() tenantId: string, @RequestId() requestId: string): Promise<LlmSettingsInUse> {
    const settings = await this.rpc.request('llm-settings.get', { tenant_id: tenantId }, { requestId });
    return settings ? { source: 'tenant', ...settings } : { source: 'platform' };
  }

  @ApiRoute({ summary: 'Go back to the global LLM', access: 'tenant', success: { status: 204, description: 'The tenant’s own settings are gone.' } })
  @Delete()
  @HttpCode(204)
  async delete(@Tenant() tenantId: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('llm-settings.delete', { tenant_id: tenantId }, { requestId });
  }
}
