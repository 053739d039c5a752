import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RateLimitsModule } from '../../rate-limits/rate-limits.module';
import { OAuthController } from './oauth.controller';
import { OAuthService } from './oauth.service';

@Module({ imports: [AuthModule, RateLimitsModule], controllers: [OAuthController], providers: [OAuthService], exports: [OAuthService] })
export class OAuthModule {}
