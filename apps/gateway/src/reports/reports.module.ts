import { Module } from '@nestjs/common';
import { ReportsController } from './reports.controller';

/** Conversation reports (CONTRACT.md §18), owned by responder-service, over request-reply. */
@Module({ controllers: [ReportsController] })
export class ReportsModule {}
