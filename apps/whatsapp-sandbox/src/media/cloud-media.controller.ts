import { Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessTokenGuard, GraphVersionPipe } from '../cloud-api/access-token.guard';
import { GraphErrorFilter } from '../cloud-api/graph-error.filter';
import { GraphErrors } from '../cloud-api/graph-error';
import { NumbersService } from '../numbers/numbers.service';
import { DOWNLOAD_PATH, SandboxMediaService } from './sandbox-media.service';

/**
 * The Cloud API media routes: `POST /{version}/{phone_number_id}/media` (multipart upload) and the download URL that
 * `GET /{version}/{media_id}` names (served by EmbeddedSignupController's `GET /{version}/{id}`, which reads any
 * Graph object), which needs the same bearer token.
 */
@Controller()
@UseGuards(AccessTokenGuard)
@UseFilters(GraphErrorFilter)
export class CloudMediaController {
  constructor(
    private readonly media: SandboxMediaService,
    private readonly numbers: NumbersService,
  ) {}

  @Post(':version/:id/media')
  @HttpCode(200)
  async upload(@Param('version', GraphVersionPipe) _version: string, @Param('id') phoneNumberId: string, @Req() request: FastifyRequest): Promise<{ id: string }> {
    if (!(await this.numbers.findById(phoneNumberId))) throw GraphErrors.unknownObject('post', phoneNumberId);
    if (!request.isMultipart()) throw GraphErrors.invalidParameter('The parameter file is required.');
    const form = { messagingProduct: null as string | null, type: null as string | null, file: null as { data: Buffer; mimeType: string; filename: string | null } | null };
    for await (const part of request.parts({ limits: { fileSize: 100 * 1024 * 1024 + 1, files: 1 } })) {
      if (part.type === 'file') form.file = { data: await part.toBuffer(), mimeType: part.mimetype, filename: part.filename || null };
      else if (part.fieldname === 'messaging_product') form.messagingProduct = String(part.value);
      else if (part.fieldname === 'type') form.type = String(part.value);
    }
    return this.media.upload(phoneNumberId, form);
  }

  @Get(DOWNLOAD_PATH)
  async download(@Query('mid') id: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    const media = await this.media.download(id ?? '');
    await reply.header('content-type', media.mimeType).header('content-length', String(media.size)).send(media.data);
  }
}
