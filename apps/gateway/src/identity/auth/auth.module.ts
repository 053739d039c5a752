import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { GatewayConfig } from '../../config/gateway.config';
import { QuotasModule } from '../../quotas/quotas.module';
import { SessionsModule } from '../sign-in/sessions.module';
import { TenantsModule } from '../tenants/tenants.module';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { RequestAuthentication } from './request-authentication';
import { PermissionsGuard } from './permissions';
import { JWT_ALGORITHM, TokenService } from './token.service';

@Module({
  imports: [
    JwtModule.registerAsync({
      inject: [GatewayConfig],
      useFactory: (config: GatewayConfig) => ({ secret: config.JWT_SECRET, signOptions: { algorithm: JWT_ALGORITHM } }),
    }),
    ApiKeysModule,
    TenantsModule,
    QuotasModule,
    SessionsModule,
  ],
  // Global guards run in this order: the credential first, then the member's permissions.
  providers: [TokenService, AuthService, RequestAuthentication, { provide: APP_GUARD, useClass: AuthGuard }, { provide: APP_GUARD, useClass: PermissionsGuard }],
  exports: [TokenService, RequestAuthentication],
})
export class AuthModule {}
