import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RateLimitsModule } from '../../rate-limits/rate-limits.module';
import { TeamModule } from '../team/team.module';
import { LoginThrottle } from './login-throttle';
import { SessionsModule } from './sessions.module';
import { SignInController } from './sign-in.controller';
import { SignInService } from './sign-in.service';

@Module({ imports: [AuthModule, SessionsModule, TeamModule, RateLimitsModule], controllers: [SignInController], providers: [SignInService, LoginThrottle] })
export class SignInModule {}
