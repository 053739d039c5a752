import { Module } from '@nestjs/common';
import { OptOutsConsumer } from './opt-outs.consumer';
import { OptOutsService } from './opt-outs.service';

@Module({
  controllers: [OptOutsConsumer],
  providers: [OptOutsService],
  exports: [OptOutsService],
})
export class OptOutsModule {}
