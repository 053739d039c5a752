import { Injectable, Logger } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway.config';

export type MemberLinkKind = 'invitation' | 'password reset';

/**
 * Hands a member their invitation or password-reset link. There is no mail delivery yet: in development (any
 * NODE_ENV but production) the link is written to the log for whoever runs the stack; in production it goes nowhere
 * beyond the invitation's own answer (`invite_url`).
 */
@Injectable()
export class MemberLinks {
  private readonly logger = new Logger(MemberLinks.name);

  constructor(private readonly config: GatewayConfig) {}

  deliver(kind: MemberLinkKind, member: { id: string; email: string; tenantId: string }, url: string): void {
    if (!this.config.isProduction) this.logger.log(`${kind} link for ${member.email} (${member.id}, ${member.tenantId}): ${url}`);
  }
}
