import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseFilters, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AccessTokenGuard, GraphVersionPipe } from '../cloud-api/access-token.guard';
import { GraphErrorFilter } from '../cloud-api/graph-error.filter';
import { SandboxMediaService, type GraphMediaInfo } from '../media/sandbox-media.service';
import { EmbeddedSignupService, type CodeExchangeQuery, type GraphPhoneNumber } from './embedded-signup.service';

/**
 * The Graph routes of embedded signup (CONTRACT.md §6), Graph-shaped answers and errors. Fastify prefers static
 * segments, so `/{version}/oauth/access_token` and the `/_sandbox/*`, `/health*` routes are never taken for ids.
 */
@Controller(':version')
@UseFilters(GraphErrorFilter)
export class EmbeddedSignupController {
  constructor(
    private readonly signup: EmbeddedSignupService,
    private readonly media: SandboxMediaService,
  ) {}

  @Get('oauth/access_token')
  exchangeCode(@Param('version', GraphVersionPipe) _version: string, @Query() query: CodeExchangeQuery) {
    return this.signup.exchangeCode(query);
  }

  @Post(':id/subscribed_apps')
  @HttpCode(200)
  @UseGuards(AccessTokenGuard)
  subscribeApp(@Param('version', GraphVersionPipe) _version: string): { success: true } {
    return this.signup.subscribeApp();
  }

  @Post(':id/register')
  @HttpCode(200)
  @UseGuards(AccessTokenGuard)
  register(@Param('version', GraphVersionPipe) _version: string, @Param('id') phoneNumberId: string, @Body() body: unknown): Promise<{ success: true }> {
    return this.signup.register(phoneNumberId, body);
  }

  /** Any Graph object by id: a media file (its download URL and type, CONTRACT.md §13) or a phone number. */
  @Get(':id')
  @UseGuards(AccessTokenGuard)
  async graphObject(@Param('version', GraphVersionPipe) _version: string, @Param('id') id: string, @Req() request: FastifyRequest): Promise<GraphPhoneNumber | GraphMediaInfo> {
    const media = await this.media.find(id);
    if (media) return this.media.info(media, `${request.protocol}://${request.headers.host}`);
    return this.signup.phoneNumber(id);
  }
}
