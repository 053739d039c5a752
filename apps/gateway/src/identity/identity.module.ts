import { Module } from '@nestjs/common';
import { AccountsModule } from './accounts/accounts.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuthModule } from './auth/auth.module';
import { OAuthModule } from './oauth/oauth.module';
import { SignInModule } from './sign-in/sign-in.module';
import { TeamModule } from './team/team.module';
import { TenantsModule } from './tenants/tenants.module';

/**
 * Who a caller is and what they may do: accounts and their tenants' plans, the credentials (API keys, OAuth
 * client-credentials tokens, team members' sessions), the team with its roles and permissions, and the authentication
 * and permission guards every route passes. The app module imports this one module for all of them.
 */
@Module({ imports: [AuthModule, AccountsModule, OAuthModule, ApiKeysModule, TenantsModule, TeamModule, SignInModule] })
export class IdentityModule {}
