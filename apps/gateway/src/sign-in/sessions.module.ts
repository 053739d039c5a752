import { Module } from '@nestjs/common';
import { SessionsService } from './sessions.service';

/** Member sessions, apart from the sign-in routes so that authentication (AuthModule) can use them without a cycle. */
@Module({ providers: [SessionsService], exports: [SessionsService] })
export class SessionsModule {}
