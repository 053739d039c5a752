import { Module } from '@nestjs/common';
import { TeamModule } from '../identity/team/team.module';
import { PresenceBeacon } from './presence-beacon';
import { PresenceController } from './presence.controller';
import { RoutingRulesController } from './routing-rules.controller';
import { TeamsController } from './teams.controller';

/** Team operations (CONTRACT.md §18): teams, routing rules and presence, owned by responder-service, over request-reply. */
@Module({ imports: [TeamModule], controllers: [TeamsController, RoutingRulesController, PresenceController], providers: [PresenceBeacon], exports: [PresenceBeacon] })
export class TeamsModule {}
