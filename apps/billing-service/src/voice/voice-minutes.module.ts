import { Module } from '@nestjs/common';
import { VoiceMinutesConsumer, VoiceMinutesService } from './voice-minutes.consumer';

/** Meters voice calls' minutes from `voice.call_ended`. */
@Module({ controllers: [VoiceMinutesConsumer], providers: [VoiceMinutesService], exports: [VoiceMinutesService] })
export class VoiceMinutesModule {}
