import { Module } from '@nestjs/common';
import { AnnouncementsModule } from '../announcements/announcements.module';
import { AgentsRpcController } from './agents.rpc.controller';
import { AgentsService } from './agents.service';
import { AgentsStore } from './agents.store';

@Module({ imports: [AnnouncementsModule], controllers: [AgentsRpcController], providers: [AgentsService, AgentsStore], exports: [AgentsService, AgentsStore] })
export class AgentsModule {}
