import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ProblemTypes, newId, problem, type CreateAccountBody, type CreatedAccount } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { GatewayConfig } from '../../config/gateway.config';
import { OAuthService } from '../oauth/oauth.service';
import { TeamService } from '../team/team.service';
import { TenantEntity } from './tenant.entity';

/**
 * Sign-up: a tenant with its OAuth client and first API key, plus (with the sandbox on) its own sandbox number, and
 * with `{email, password}` its first team member, the `owner` (CONTRACT.md §12).
 */
@Injectable()
export class AccountsService {
  private readonly logger = new Logger(AccountsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly oauth: OAuthService,
    private readonly apiKeys: ApiKeysService,
    private readonly rpc: RpcClient,
    private readonly config: GatewayConfig,
    private readonly team: TeamService,
  ) {}

  async create(body: CreateAccountBody, requestId: string): Promise<CreatedAccount> {
    const tenantId = newId('ten');
    const credentials = await this.db.transaction(async (tx) => {
      await tx.save(tx.getRepository(TenantEntity).create({ id: tenantId, name: body.name, email: body.email ?? null, plan: 'free' }));
      const client = await this.oauth.registerClient(tx, tenantId);
      const key = await this.apiKeys.createIn(tx, tenantId, 'default');
      if (body.email && body.password) {
        await this.team.createOwnerIn(tx, tenantId, { email: body.email, name: body.owner_name ?? body.email.split('@')[0], password: body.password });
      }
      return { ...client, api_key: key.api_key };
    });
    if (this.config.SANDBOX_ENABLED) await this.provisionSandbox(tenantId, requestId);
    return { tenant_id: tenantId, plan: 'free', ...credentials };
  }

  /**
   * An account without its sandbox number could not send, so sign-up fails as a whole: the rows just written are
   * removed (cascading to the client and key) and the caller is told to retry.
   */
  private async provisionSandbox(tenantId: string, requestId: string): Promise<void> {
    try {
      await this.rpc.request('channels.provision-sandbox', { tenant_id: tenantId }, { requestId });
    } catch (err) {
      this.logger.warn(`sandbox channel for ${tenantId} not provisioned, sign-up undone: ${String(err)}`);
      await this.db.getRepository(TenantEntity).delete({ id: tenantId });
      throw new ProblemException(
        problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'The account could not be set up right now (its sandbox number was not provisioned); retry shortly.'),
        { 'retry-after': '5' },
      );
    }
  }
}
