import { Module } from '@nestjs/common';
import { SandboxVoiceController } from './voice.controller';
import { VoiceCallsStore } from './voice-calls.store';
import { VoiceService } from './voice.service';

/** Twilio-wire voice: the sandbox plays the caller (CONTRACT.md §17). */
@Module({
  controllers: [SandboxVoiceController],
  providers: [VoiceService, VoiceCallsStore],
})
export class VoiceModule {}
