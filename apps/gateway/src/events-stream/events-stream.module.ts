import { Module } from '@nestjs/common';
import { EventsStreamController } from './events-stream.controller';
import { EventsStreamService } from './events-stream.service';
import { TeamsModule } from '../teams/teams.module';

@Module({ imports: [TeamsModule], controllers: [EventsStreamController], providers: [EventsStreamService] })
export class EventsStreamModule {}
