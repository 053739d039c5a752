import { Module } from '@nestjs/common';
import { AnnouncementRelay } from './announcement-relay';

@Module({ providers: [AnnouncementRelay], exports: [AnnouncementRelay] })
export class AnnouncementsModule {}
