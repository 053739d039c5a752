import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { OAuthModule } from '../oauth/oauth.module';
import { RateLimitsModule } from '../../rate-limits/rate-limits.module';
import { TeamModule } from '../team/team.module';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';

@Module({ imports: [OAuthModule, ApiKeysModule, RateLimitsModule, TeamModule], controllers: [AccountsController], providers: [AccountsService] })
export class AccountsModule {}
