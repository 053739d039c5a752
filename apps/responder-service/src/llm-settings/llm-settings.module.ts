import { type DynamicModule, Module } from '@nestjs/common';
import { CredentialCipher } from '@parley/service-kit';
import type { ResponderServiceConfig } from '../config/responder-service.config';
import { LlmSettingsRpcController } from './llm-settings.rpc.controller';
import { LlmSettingsService } from './llm-settings.service';

@Module({})
export class LlmSettingsModule {
  static forRoot(config: ResponderServiceConfig): DynamicModule {
    return {
      module: LlmSettingsModule,
      controllers: [LlmSettingsRpcController],
      providers: [LlmSettingsService, { provide: CredentialCipher, useValue: new CredentialCipher(config.ENCRYPTION_KEY) }],
      exports: [LlmSettingsService],
    };
  }
}
