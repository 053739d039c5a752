import { Body, Controller, Headers, HttpCode, Post, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { IssuedToken } from '../auth/token.service';
import { AddressLimitGuard, LimitPerAddress } from '../rate-limits/address-limit.guard';
import { OAuthErrorFilter } from './oauth.errors';
import { OAuthService } from './oauth.service';

/** `POST /oauth/token` (CONTRACT.md §2): form or JSON body, or HTTP Basic client authentication. */
@Controller('oauth')
@UseFilters(OAuthErrorFilter)
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  @Post('token')
  @HttpCode(200)
  @LimitPerAddress('token')
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
