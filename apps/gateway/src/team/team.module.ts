import { Module } from '@nestjs/common';
import { MemberTokensService } from './member-tokens.service';
import { TeamController } from './team.controller';
import { TeamService } from './team.service';

@Module({ controllers: [TeamController], providers: [TeamService, MemberTokensService], exports: [TeamService, MemberTokensService] })
export class TeamModule {}
