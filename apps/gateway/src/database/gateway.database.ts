import type { ServiceDatabase } from '@parley/service-kit';
import { TenantEntity } from '../identity/accounts/tenant.entity';
import { ApiKeyEntity } from '../identity/api-keys/api-key.entity';
import { OAuthClientEntity } from '../identity/oauth/oauth-client.entity';
import { MemberSessionEntity } from '../identity/sign-in/member-session.entity';
import { MemberTokenEntity } from '../identity/team/member-token.entity';
import { MemberEntity } from '../identity/team/member.entity';
import { CreateGateway1763856000000 } from './migrations/1763856000000-CreateGateway';
import { CreateTeamMembers1795651200000 } from './migrations/1795651200000-CreateTeamMembers';
import { PlatformMail1795737600000 } from './migrations/1795737600000-PlatformMail';

export const gatewayDatabase: ServiceDatabase = {
  schema: 'gateway',
  entities: [TenantEntity, OAuthClientEntity, ApiKeyEntity, MemberEntity, MemberTokenEntity, MemberSessionEntity],
  migrations: [CreateGateway1763856000000, CreateTeamMembers1795651200000, PlatformMail1795737600000],
};
