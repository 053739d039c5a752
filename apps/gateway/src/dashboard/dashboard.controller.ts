import { Controller, Get, Req, Res } from '@nestjs/common';
import { ProblemTypes, notFoundProblem, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodeSitePath } from '../http/built-site';
import { DashboardAssets } from './dashboard-assets';

export const DASHBOARD_PATH = '/dashboard';

/**
 * The page may load its own scripts and styles and talk to this origin only: no inline code, no third parties,
 * never framed (it shows credentials).
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** `GET /dashboard` (CONTRACT.md §8): the built single-page app, from the gateway's own origin. */
@Controller('dashboard')
export class DashboardController {
  constructor(private readonly assets: DashboardAssets) {}

  @Get()
  page(@Res() reply: FastifyReply): FastifyReply {
    return this.send(reply, '');
  }

  @Get('*')
  file(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    return this.send(reply, decodeSitePath(request.url.slice(DASHBOARD_PATH.length)));
  }

  private send(reply: FastifyReply, path: string): FastifyReply {
    if (!this.assets.built) {
      // retryable: the assets look for the build on every request, so one finished after start is served at once
      throw new ProblemException(
        problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'The dashboard has not been built: run `npm run build` (or `node tools/dev/swc-build.mjs apps/dashboard`).'),
        { 'retry-after': '5' },
      );
    }
    const asset = this.assets.resolve(path);
    if (!asset) throw new ProblemException(notFoundProblem(`Dashboard file "${path.slice(0, 100)}"`));
    void reply.headers(PAGE_HEADERS);
    void reply.header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    return reply.type(asset.contentType).send(asset.body);
  }
}
