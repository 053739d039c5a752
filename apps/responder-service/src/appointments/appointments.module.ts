import { Module } from '@nestjs/common';
import { AppointmentsRpcController } from './appointments.rpc.controller';
import { AppointmentsService } from './appointments.service';
import { CalendarFeedRpcController } from './calendar-feed.rpc.controller';
import { CalendarFeedService } from './calendar-feed.service';

@Module({
  controllers: [AppointmentsRpcController, CalendarFeedRpcController],
  providers: [AppointmentsService, CalendarFeedService],
  exports: [AppointmentsService],
})
export class AppointmentsModule {}
