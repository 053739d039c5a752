import { Module } from '@nestjs/common';
import { TeamModule } from '../identity/team/team.module';
import { AppointmentsController } from './appointments.controller';
import { CannedRepliesController } from './canned-replies.controller';
import { CalendarFeedController, CalendarIntegrationController } from './calendar-feed.controller';
import { ConversationsController } from './conversations.controller';
import { LeadsController } from './leads.controller';
import { ThreadStatuses } from './thread-statuses';

/** Conversations, canned replies, leads and appointments (CONTRACT.md §9, §12, §14, §18): owned by responder-service, over request-reply. */
@Module({
  imports: [TeamModule],
  controllers: [ConversationsController, CannedRepliesController, LeadsController, AppointmentsController, CalendarIntegrationController, CalendarFeedController],
  providers: [ThreadStatuses],
})
export class EngagementModule {}
