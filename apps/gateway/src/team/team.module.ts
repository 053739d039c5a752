import { Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { MemberLinks } from './member-links';
import { MemberTokensService } from './member-tokens.service';
import { TeamController } from './team.controller';
import { TeamService } from './team.service';

@Module({ imports: [RateLimitsModule, MailModule], controllers: [TeamController], providers: [TeamService, MemberTokensService, MemberLinks], exports: [TeamService, MemberTokensService, MemberLinks] })
export class TeamModule {}
