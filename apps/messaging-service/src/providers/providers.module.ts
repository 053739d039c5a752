import { Module } from '@nestjs/common';
import { VoiceState } from '../voice/voice-state';
import { ProviderRegistry } from './provider-registry';

@Module({ providers: [ProviderRegistry, VoiceState], exports: [ProviderRegistry, VoiceState] })
export class ProvidersModule {}
