import { type DynamicModule, Module } from '@nestjs/common';
import { CredentialCipher } from '@parley/service-kit';
import type { ResponderServiceConfig } from '../config/responder-service.config';
import { LlmSettingsRpcController } from './llm-settings.rpc.controller';
import { LlmSettingsService } from './llm-settings.service';
import { LlmSettingsStore } from './llm-settings.store';
import { LlmSpendConsumer } from './llm-spend.consumer';
import { TenantLlms } from './tenant-llms';

@Module({})
export class LlmSettingsModule {
  static forRoot(config: ResponderServiceConfig): DynamicModule {
    return {
      module: LlmSettingsModule,
      // Global: the reply flow asks TenantLlms which LLM answers each tenant.
      global: true,
      controllers: [LlmSettingsRpcController, LlmSpendConsumer],
      providers: [LlmSettingsService, LlmSettingsStore, TenantLlms, { provide: CredentialCipher, useValue: new CredentialCipher(config.ENCRYPTION_KEY) }],
      exports: [LlmSettingsService, TenantLlms],
    };
  }
}
