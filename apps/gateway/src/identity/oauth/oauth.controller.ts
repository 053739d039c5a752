import { Body, Controller, Headers, HttpCode, Post, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { IssuedToken } from '@parley/contracts';
import type { FastifyReply } from 'fastify';
import { AddressLimitGuard, LimitPerAddress } from '../../rate-limits/address-limit.guard';
import { OAuthErrorFilter } from './oauth.errors';
import { OAuthService } from './oauth.service';
import { slowDown } from './token-route';
import { schemaRef } from '../../openapi/dto-schema';
import { ApiRoute } from '../../openapi/api-route.decorator';

/** `POST /oauth/token` (CONTRACT.md §2): form or JSON body, or HTTP Basic client authentication. */
@Controller('oauth')
@UseFilters(OAuthErrorFilter)
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  @ApiRoute({
    summary: 'Issue an access token (OAuth2 client credentials)',
    description: 'Form-encoded or JSON body; client credentials in the body or as HTTP Basic. Errors use the OAuth shape (RFC 6749 §5.2). Limited per client address.',
    access: 'oauth-client',
    body: { schema: schemaRef('TokenRequest'), contentTypes: ['application/x-www-form-urlencoded', 'application/json'] },
    success: { status: 200, description: 'A bearer access token (JWT).', schema: 'AccessToken' },
    errors: [400, 401, 413, 415, 429],
  })
  @Post('token')
  @HttpCode(200)
  @LimitPerAddress('token', slowDown)
  @UseGuards(AddressLimitGuard)
  token(
    @Body() body: unknown,
    @Headers('authorization') authorization: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IssuedToken> {
    void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    return this.oauth.issueToken({ body, authorization });
  }
}
