import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { MemberLinks } from './member-links';
import { MemberTokensService } from './member-tokens.service';
import { TeamController } from './team.controller';
import { TeamService } from './team.service';

@Module({ imports: [RateLimitsModule], controllers: [TeamController], providers: [TeamService, MemberTokensService, MemberLinks], exports: [TeamService, MemberTokensService, MemberLinks] })
export class TeamModule {}
