import { Body, Controller, Headers, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { IssuedToken } from '@parley/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TokenService } from '../auth/token.service';
import { GatewayConfig } from '../../config/gateway.config';
import { parseCookies } from '../../http/cookies';
import { publicBaseUrl } from '../../http/public-base-url';
import { ApiRoute } from '../../openapi/api-route.decorator';
import { AddressLimitGuard, LimitPerAddress } from '../../rate-limits/address-limit.guard';
import { SetPasswordBody } from '../team/team.dto';
import { SESSION_COOKIE, clearSessionCookies, setSessionCookies } from './session-cookies';
import { SessionsService } from './sessions.service';
import { LoginBody, PasswordResetBody } from './sign-in.dto';
import { SignInService } from './sign-in.service';

/**
 * Team members sign in and out (CONTRACT.md §12); programs keep using `/oauth/token` and API keys. Each client address
 * may call these routes `SIGN_IN_RATE_LIMIT_PER_MINUTE` times a minute.
 */
@Controller('auth')
@LimitPerAddress('sign-in')
@UseGuards(AddressLimitGuard)
export class SignInController {
  constructor(
    private readonly signIn: SignInService,
    private readonly sessions: SessionsService,
    private readonly tokens: TokenService,
    private readonly config: GatewayConfig,
  ) {}

  @ApiRoute({
    summary: 'Sign in as a team member',
    description: [
      'Answers an access token naming the tenant and the member (valid while the session lasts, at most `JWT_TTL_SECONDS`) and sets the dashboard’s',
      'session cookies: `parley_session` (httpOnly, SameSite=Strict, Secure in production) and `parley_csrf`, whose value a cookie-authenticated',
      '`POST`/`PUT`/`PATCH`/`DELETE` must echo in `X-CSRF-Token`. The session ends after `SESSION_TTL_SECONDS` without use (sliding) or',
      '`SESSION_MAX_AGE_SECONDS` after sign-in. 10 failed sign-ins for an email within 15 minutes lock it (429) until the window ends.',
      'An email in several teams may name `tenant_id`; otherwise the newest membership whose password matches signs in.',
    ].join(' '),
    access: 'public',
    body: LoginBody,
    success: { status: 200, description: 'Signed in.', schema: 'AccessToken', headers: { 'Set-Cookie': { description: 'The session and CSRF cookies.', schema: { type: 'string' } } } },
    errors: [401, 429],
  })
  @Post('login')
  @HttpCode(200)
  async login(@Body() body: LoginBody, @Res({ passthrough: true }) reply: FastifyReply): Promise<IssuedToken> {
    const { token, session } = await this.signIn.login(body.email, body.password, body.tenant_id);
    setSessionCookies(reply, session, this.config.SESSION_MAX_AGE_SECONDS, this.config.isProduction);
    void reply.header('cache-control', 'no-store');
    return token;
  }

  @ApiRoute({
    summary: 'Sign out',
    description: 'Ends the session of the cookie (or of the member’s bearer access token) and clears the cookies. Always 204.',
    access: 'public',
    success: { status: 204, description: 'Signed out.' },
    errors: [429],
  })
  @Post('logout')
  @HttpCode(204)
  async logout(@Req() request: FastifyRequest, @Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const cookie = parseCookies(request.headers.cookie).get(SESSION_COOKIE);
    if (cookie) await this.sessions.endByToken(cookie);
    const bearer = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
    const member = bearer ? (await this.tokens.verifyClaims(bearer))?.member : undefined;
    if (member) await this.sessions.endById(member.sessionId);
    clearSessionCookies(reply, this.config.isProduction);
  }

  @ApiRoute({
    summary: 'Forgot password: send a reset link',
    description:
      'Always 202, whether or not the email has an account. Each active membership of the email is mailed a link (valid `PASSWORD_RESET_TTL_SECONDS`, once; MAIL_SMTP_URL, retried while the SMTP server does not take it), which in development is also written to the log.',
    access: 'public',
    body: PasswordResetBody,
    success: { status: 202, description: 'Accepted.' },
    errors: [429],
  })
  @Post('password-reset')
  @HttpCode(202)
  async requestReset(@Body() body: PasswordResetBody, @Req() request: FastifyRequest): Promise<void> {
    await this.signIn.requestReset(body.email, publicBaseUrl(this.config, request));
  }

  @ApiRoute({
    summary: 'Set a new password with a reset link’s token',
    description: 'The token works once; every session of the member ends.',
    access: 'public',
    body: SetPasswordBody,
    success: { status: 204, description: 'Password changed.' },
    errors: [429],
  })
  @Post('password-reset/confirm')
  @HttpCode(204)
  async confirmReset(@Body() body: SetPasswordBody): Promise<void> {
    await this.signIn.confirmReset(body.token, body.password);
  }
}
