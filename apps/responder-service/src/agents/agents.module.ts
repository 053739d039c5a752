import { Module } from '@nestjs/common';
import { AgentsConsumer } from './agents.consumer';
import { AgentsService } from './agents.service';

@Module({ controllers: [AgentsConsumer], providers: [AgentsService], exports: [AgentsService] })
export class AgentsModule {}
