import { Logger } from '@nestjs/common';
import { loadConfig } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import { GatewayConfig } from '../../config/gateway.config';
import type { MailToSend, PlatformMail } from '../../mail/platform-mail';
import { MemberLinks } from './member-links';
import type { MemberEntity } from './member.entity';

const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: 'a-production-jwt-secret-0123456789',
  ADMIN_TOKEN: 'a-production-admin-token',
  META_APP_SECRET: 'a-production-app-secret',
  META_VERIFY_TOKEN: 'a-production-verify-token',
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

/** PlatformMail's queue as MemberLinks sees it: what it was asked to queue (the outbox and SMTP are the integration spec's). */
function outbox(enabled = true): { mail: PlatformMail; queued: MailToSend[] } {
  const queued: MailToSend[] = [];
  const mail = { enabled, queue: async (_tx: EntityManager, _tenant: string, m: MailToSend) => (queued.push(m), true), wake: () => undefined } as unknown as PlatformMail;
  return { mail, queued };
}

describe('MemberLinks', () => {
  const member = { id: 'usr_01JABCDEFGHJKMNPQRSTVWXYZ0', email: 'ana@example.com', name: 'Ana', role: 'agent', tenantId: 'ten_01JABCDEFGHJKMNPQRSTVWXYZ0' } as MemberEntity;
  const url = 'http://127.0.0.1:3000/dashboard/reset-password?token=abc';
  const expiresAt = new Date('2026-12-03T14:05:00Z');
  const tx = {} as EntityManager;
  afterEach(() => jest.restoreAllMocks());

  it('mails the link and writes it to the log outside production', async () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const { mail, queued } = outbox();
    await new MemberLinks(loadConfig(GatewayConfig, { NODE_ENV: 'development' }), mail).passwordReset(tx, member, url, expiresAt, 'Fjord Bikes');
    expect(log.mock.calls.map((c) => c[0])).toEqual([`password reset link for ana@example.com (${member.id}, ${member.tenantId}): ${url}`]);
    expect(queued).toEqual([{ kind: 'password_reset', memberId: member.id, recipient: 'ana@example.com', giveUpAt: expiresAt, content: expect.objectContaining({ subject: 'Reset your Parley password for Fjord Bikes' }) }]);
    expect(queued[0].content.text).toContain(url);
  });

  it('in production mails an invitation only with PUBLIC_BASE_URL set, and never logs a link', async () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const context = { business: 'Fjord Bikes', inviter: { name: 'Olivia', email: 'olivia@fjord.example' } };
    const hostless = outbox();
    await new MemberLinks(loadConfig(GatewayConfig, PRODUCTION), hostless.mail).invitation(tx, member, url, expiresAt, context);
    expect(hostless.queued).toEqual([]);
    expect(error.mock.calls[0][0]).toContain('set PUBLIC_BASE_URL');

    const configured = outbox();
    await new MemberLinks(loadConfig(GatewayConfig, { ...PRODUCTION, PUBLIC_BASE_URL: 'https://app.parley.example' }), configured.mail).invitation(tx, member, url, expiresAt, context);
    expect(configured.queued.map((m) => [m.kind, m.recipient, m.content.subject])).toEqual([['invitation', 'ana@example.com', 'Olivia invited you to join Fjord Bikes on Parley']]);
    expect(log).not.toHaveBeenCalled();
  });

  it('queues nothing when mail is off (MAIL_SMTP_URL empty), and still logs in development', async () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const { mail, queued } = outbox(false);
    await new MemberLinks(loadConfig(GatewayConfig, { NODE_ENV: 'development', MAIL_SMTP_URL: '' }), mail).passwordReset(tx, member, url, expiresAt, 'Fjord Bikes');
    expect(queued).toEqual([]);
    expect(log).toHaveBeenCalledTimes(1);
  });
});
