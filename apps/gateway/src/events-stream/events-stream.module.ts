import { Module } from '@nestjs/common';
import { EventsStreamController } from './events-stream.controller';
import { EventsStreamService } from './events-stream.service';

@Module({ controllers: [EventsStreamController], providers: [EventsStreamService] })
export class EventsStreamModule {}
