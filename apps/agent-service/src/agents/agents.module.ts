import { Module } from '@nestjs/common';
import { AnnouncementsModule } from '../announcements/announcements.module';
import { AgentsRpcController } from './agents.rpc.controller';
import { AgentsService } from './agents.service';

@Module({ imports: [AnnouncementsModule], controllers: [AgentsRpcController], providers: [AgentsService], exports: [AgentsService] })
export class AgentsModule {}
