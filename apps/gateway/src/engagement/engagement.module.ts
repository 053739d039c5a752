import { Module } from '@nestjs/common';
import { AppointmentsController } from './appointments.controller';
import { ConversationsController } from './conversations.controller';
import { LeadsController } from './leads.controller';

/** Conversations, leads and appointments (CONTRACT.md §9): read from responder-service over request-reply. */
@Module({ controllers: [ConversationsController, LeadsController, AppointmentsController] })
export class EngagementModule {}
