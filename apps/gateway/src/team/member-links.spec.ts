import { Logger } from '@nestjs/common';
import { loadConfig } from '@parley/service-kit';
import { GatewayConfig } from '../config/gateway.config';
import { MemberLinks } from './member-links';

describe('MemberLinks', () => {
  const member = { id: 'usr_01JABCDEFGHJKMNPQRSTVWXYZ0', email: 'ana@example.com', tenantId: 'ten_01JABCDEFGHJKMNPQRSTVWXYZ0' };
  const url = 'http://127.0.0.1:3000/dashboard/reset-password?token=abc';
  afterEach(() => jest.restoreAllMocks());

  it('writes the link to the log outside production', () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    new MemberLinks(loadConfig(GatewayConfig, { NODE_ENV: 'development' })).deliver('password reset', member, url);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0][0]).toBe(`password reset link for ana@example.com (${member.id}, ${member.tenantId}): ${url}`);
  });

  it('never logs a link in production', () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const production = loadConfig(GatewayConfig, {
      NODE_ENV: 'production',
      JWT_SECRET: 'a-production-jwt-secret-0123456789',
      ADMIN_TOKEN: 'a-production-admin-token',
      META_APP_SECRET: 'a-production-app-secret',
      META_VERIFY_TOKEN: 'a-production-verify-token',
    });
    new MemberLinks(production).deliver('invitation', member, url);
    expect(log).not.toHaveBeenCalled();
  });
});
