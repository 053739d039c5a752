import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Readiness } from './readiness';

/** `GET /health` (alive) and `GET /health/ready` (dependencies reachable); `GET /metrics` is served by metrics.ts. */
@Controller()
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  @Get('health')
  @HttpCode(200)
  alive() {
    return { status: 'ok' };
  }

  @Get('health/ready')
  async ready(@Res() reply: FastifyReply) {
    const result = await this.readiness.run();
    await reply.status(result.ready ? 200 : 503).send({ status: result.ready ? 'ready' : 'not_ready', checks: result.checks });
  }
}
