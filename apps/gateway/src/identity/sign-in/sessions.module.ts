import { Module } from '@nestjs/common';
import { SessionsService } from './sessions.service';
import { SessionsStore } from './sessions.store';

/** Member sessions, apart from the sign-in routes so that authentication (AuthModule) can use them without a cycle. */
@Module({ providers: [SessionsService, SessionsStore], exports: [SessionsService] })
export class SessionsModule {}
