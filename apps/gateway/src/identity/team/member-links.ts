import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { GatewayConfig } from '../../config/gateway.config';
import { invitationMail, passwordResetMail } from '../../mail/member-mail';
import { PlatformMail } from '../../mail/platform-mail';
import type { MemberEntity } from './member.entity';

/** What an invitation mail says besides its link. */
export interface InvitationContext {
  business: string;
  inviter: { name: string; email: string } | null;
}

/**
 * Hands a member their invitation or password-reset link (issue 32): mailed over SMTP, queued in the caller's
 * transaction (PlatformMail) so that the link and its mail exist both or neither; call `wake` after the commit.
 * Outside production the link is also written to the log, for whoever runs the stack.
 *
 * In production a link is mailed only with PUBLIC_BASE_URL set: the request's own Host would let anyone who can ask
 * for a password reset put a link to their own site in a member's mailbox.
 */
@Injectable()
export class MemberLinks {
  private readonly logger = new Logger(MemberLinks.name);

  constructor(
    private readonly config: GatewayConfig,
    private readonly mail: PlatformMail,
  ) {}

  async invitation(tx: EntityManager, member: MemberEntity, url: string, expiresAt: Date, context: InvitationContext): Promise<void> {
    this.log('invitation', member, url);
    if (!this.mailable('invitation')) return;
    const content = invitationMail({ business: context.business, invitee: { name: member.name }, inviter: context.inviter, role: member.role, url, expiresAt });
    await this.mail.queue(tx, member.tenantId, { kind: 'invitation', memberId: member.id, recipient: member.email, content, giveUpAt: expiresAt });
  }

  async passwordReset(tx: EntityManager, member: MemberEntity, url: string, expiresAt: Date, business: string): Promise<void> {
    this.log('password reset', member, url);
    if (!this.mailable('password reset')) return;
    const content = passwordResetMail({ business, member: { name: member.name }, url, expiresAt });
    await this.mail.queue(tx, member.tenantId, { kind: 'password_reset', memberId: member.id, recipient: member.email, content, giveUpAt: expiresAt });
  }

  /** Links were queued and committed: mail them now. */
  wake(): void {
    this.mail.wake();
  }

  private mailable(kind: string): boolean {
    if (!this.mail.enabled) return false;
    if (this.config.isProduction && !this.config.PUBLIC_BASE_URL) {
      this.logger.error(`not mailing a ${kind} link: set PUBLIC_BASE_URL (the dashboard's public origin) to mail links in production`);
      return false;
    }
    return true;
  }

  private log(kind: string, member: Pick<MemberEntity, 'id' | 'email' | 'tenantId'>, url: string): void {
    if (!this.config.isProduction) this.logger.log(`${kind} link for ${member.email} (${member.id}, ${member.tenantId}): ${url}`);
  }
}
