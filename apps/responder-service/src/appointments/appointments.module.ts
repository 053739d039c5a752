import { Module } from '@nestjs/common';
import { AppointmentsRpcController } from './appointments.rpc.controller';
import { AppointmentsStore } from './appointments.store';
import { CalendarFeedRpcController } from './calendar-feed.rpc.controller';
import { CalendarFeedService } from './calendar-feed.service';
import { CalendarFeedsStore } from './calendar-feeds.store';

@Module({
  controllers: [AppointmentsRpcController, CalendarFeedRpcController],
  providers: [AppointmentsStore, CalendarFeedService, CalendarFeedsStore],
  exports: [AppointmentsStore],
})
export class AppointmentsModule {}
