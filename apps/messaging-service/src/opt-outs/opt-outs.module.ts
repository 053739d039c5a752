import { Module } from '@nestjs/common';
import { OptOutsConsumer } from './opt-outs.consumer';
import { OptOutsStore } from './opt-outs.store';

@Module({
  controllers: [OptOutsConsumer],
  providers: [OptOutsStore],
  exports: [OptOutsStore],
})
export class OptOutsModule {}
