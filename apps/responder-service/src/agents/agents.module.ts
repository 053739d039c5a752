import { Module } from '@nestjs/common';
import { AgentsConsumer } from './agents.consumer';
import { AgentsService } from './agents.service';
import { AgentsStore } from './agents.store';

@Module({ controllers: [AgentsConsumer], providers: [AgentsService, AgentsStore], exports: [AgentsService] })
export class AgentsModule {}
