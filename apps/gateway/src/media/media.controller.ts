import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { MediaRecord } from '@parley/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { readMediaUpload } from './media-uploads';
import { MediaService } from './media.service';

const MEDIA_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string', example: 'med_01JD5QX0Z8M3V1H2K4N6P7R9ST' },
    mime_type: { type: 'string', enum: ['image/jpeg', 'image/png', 'application/pdf', 'audio/aac', 'audio/mp4', 'audio/mpeg', 'audio/ogg', 'video/mp4'] },
    size: { type: 'integer', description: 'Bytes.' },
    sha256: { type: 'string', description: 'Hex SHA-256 of the bytes; the same bytes uploaded again answer the same record.' },
    filename: { type: 'string', nullable: true },
  },
  required: ['id', 'mime_type', 'size', 'sha256', 'filename'],
};

/** Media files to send (CONTRACT.md §13): records owned by messaging-service, bytes in the shared media store. */
@Controller('api/v1/media')
export class MediaController {
  constructor(private readonly media: MediaService) {}

  @ApiRoute({
    summary: 'Upload a media file to send',
    description:
      'One `file` part. Its type is read from its content, not its name: images JPEG/PNG ≤ 5 MiB, documents PDF ≤ 100 MiB, audio ' +
      'AAC/MP4/MPEG/OGG-opus ≤ 16 MiB, video MP4 ≤ 16 MiB (the Cloud API’s limits). A file over its limit → `413`; content of another ' +
      'type than declared → `400`; a type WhatsApp does not send → `415`. The same bytes uploaded again answer the same record. ' +
      'Kept `MEDIA_RETENTION_DAYS` (30) after the last upload.',
    access: 'tenant',
    body: { contentTypes: ['multipart/form-data'], schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } },
    success: { status: 201, description: 'Stored.', schema: MEDIA_SCHEMA },
    errors: [503],
  })
  @Post()
  async upload(@Tenant() tenantId: string, @Req() request: FastifyRequest, @RequestId() requestId: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<MediaRecord> {
    const record = await this.media.upload(tenantId, await readMediaUpload(request), requestId);
    void reply.status(201);
    return record;
  }

  @ApiRoute({
    summary: 'Download a media file',
    description: 'The bytes as uploaded or received, with their type. Another tenant’s (or an expired) file → `404`.',
    access: 'tenant',
    success: { status: 200, description: 'The file.', contentType: 'application/octet-stream', schema: { type: 'string', format: 'binary' } },
    errors: [404, 503],
  })
  @Get(':media_id')
  async download(@Tenant() tenantId: string, @Param('media_id') mediaId: string, @RequestId() requestId: string, @Res() reply: FastifyReply): Promise<void> {
    const { media, body } = await this.media.download(tenantId, mediaId, requestId);
    const filename = media.filename ? `; filename*=UTF-8''${encodeURIComponent(media.filename)}` : '';
    await reply
      .header('content-type', media.mime_type)
      .header('content-length', String(media.size))
      .header('content-disposition', `attachment${filename}`)
      .header('x-content-type-options', 'nosniff')
      .send(body);
  }
}
