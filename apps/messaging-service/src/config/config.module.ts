import { Module, type DynamicModule } from '@nestjs/common';
import { MessagingServiceConfig } from './messaging-service.config';

/** Makes the one validated config injectable everywhere. */
@Module({})
export class MessagingConfigModule {
  static forRoot(config: MessagingServiceConfig): DynamicModule {
    return {
      module: MessagingConfigModule,
      global: true,
      providers: [{ provide: MessagingServiceConfig, useValue: config }],
      exports: [MessagingServiceConfig],
    };
  }
}
