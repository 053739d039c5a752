import { Module } from '@nestjs/common';
import { MemberLinks } from './member-links';
import { MemberTokensService } from './member-tokens.service';
import { TeamController } from './team.controller';
import { TeamService } from './team.service';

@Module({ controllers: [TeamController], providers: [TeamService, MemberTokensService, MemberLinks], exports: [TeamService, MemberTokensService, MemberLinks] })
export class TeamModule {}
