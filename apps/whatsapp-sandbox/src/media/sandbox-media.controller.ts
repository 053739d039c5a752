import { Controller, Get, Param, Res } from '@nestjs/common';
import { notFoundProblem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyReply } from 'fastify';
import { SandboxMediaService } from './sandbox-media.service';

/** Test hook: the bytes of a media file as the customer got them (an id from `GET /_sandbox/messages`). */
@Controller('_sandbox/media')
export class SandboxMediaController {
  constructor(private readonly media: SandboxMediaService) {}

  @Get(':id')
  async read(@Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    const media = await this.media.find(id);
    if (!media) throw new ProblemException(notFoundProblem(`Media ${id.slice(0, 40)}`));
    await reply.header('content-type', media.mimeType).header('x-media-sha256', media.sha256).send(media.data);
  }
}
