import { Module } from '@nestjs/common';
import { SandboxVoiceController } from './voice.controller';
import { VoiceService } from './voice.service';

/** Twilio-wire voice: the sandbox plays the caller (CONTRACT.md §17). */
@Module({
  controllers: [SandboxVoiceController],
  providers: [VoiceService],
})
export class VoiceModule {}
