import { Module } from '@nestjs/common';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { CredentialCipher } from '@parley/service-kit';
import { ChannelsRpcController } from './channels.rpc.controller';
import { ChannelsService } from './channels.service';
import { ChannelsStore } from './channels.store';
import { EmbeddedSignupService } from './embedded-signup.service';
import { GraphSignupClient } from './graph-signup.client';
import { SandboxNumbersClient } from './sandbox-numbers.client';

@Module({
  controllers: [ChannelsRpcController],
  providers: [
    ChannelsService,
    ChannelsStore,
    SandboxNumbersClient,
    GraphSignupClient,
    EmbeddedSignupService,
    { provide: CredentialCipher, useFactory: (config: MessagingServiceConfig) => new CredentialCipher(config.ENCRYPTION_KEY), inject: [MessagingServiceConfig] },
  ],
  exports: [ChannelsService],
})
export class ChannelsModule {}
