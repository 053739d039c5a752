import { Module } from '@nestjs/common';
import { MailModule } from '../../mail/mail.module';
import { RateLimitsModule } from '../../rate-limits/rate-limits.module';
import { MemberLinks } from './member-links';
import { MemberTokensStore } from './member-tokens.store';
import { TeamStore } from './team.store';
import { TeamController } from './team.controller';
import { TeamService } from './team.service';

@Module({ imports: [RateLimitsModule, MailModule], controllers: [TeamController], providers: [TeamService, TeamStore, MemberTokensStore, MemberLinks], exports: [TeamService, MemberTokensStore, MemberLinks] })
export class TeamModule {}
