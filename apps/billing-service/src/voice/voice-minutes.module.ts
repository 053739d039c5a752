import { Module } from '@nestjs/common';
import { BalanceViewModule } from '../balance-view/balance-view.module';
import { MeteringModule } from '../metering/metering.module';
import { VoiceMinutesConsumer, VoiceMinutesService } from './voice-minutes.consumer';
import { VoiceMinutesStore } from './voice-minutes.store';

/** Meters and charges voice calls' minutes from `voice.call_ended`. */
@Module({ imports: [MeteringModule, BalanceViewModule], controllers: [VoiceMinutesConsumer], providers: [VoiceMinutesService, VoiceMinutesStore], exports: [VoiceMinutesService] })
export class VoiceMinutesModule {}
