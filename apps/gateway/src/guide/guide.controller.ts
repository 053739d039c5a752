import { Controller, Get, Req, Res } from '@nestjs/common';
import { ProblemTypes, notFoundProblem, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodeSitePath } from '../http/built-site';
import { GuidePages } from './guide-pages';

export const GUIDE_PATH = '/guide';

/**
 * VitePress pages carry small inline scripts (the colour scheme before first paint, the site data) and revive the
 * functions of their config with `new Function` (the search's term processor), and Mermaid draws with inline styles:
 * hence 'unsafe-inline' and 'unsafe-eval', acceptable for pages built from this repository that show no one's data.
 * Everything comes from this origin.
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** `GET /guide`: the docs site (`npm run docs` builds it), served in development beside the API reference at `/docs`. */
@Controller('guide')
export class GuideController {
  constructor(private readonly pages: GuidePages) {}

  /** `/guide` and `/guide/` (the router takes both here): the site's root, always with its slash. */
  @Get()
  root(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    if (!request.url.split('?')[0].endsWith('/')) return reply.redirect(`${GUIDE_PATH}/`, 301);
    return this.page(request, reply);
  }

  @Get('*')
  page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    if (!this.pages.built) {
      throw new ProblemException(
        problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'The docs site has not been built: run `npm run docs`.'),
        { 'retry-after': '5' },
      );
    }
    const path = decodeSitePath(request.url.slice(GUIDE_PATH.length));
    const asset = this.pages.resolve(path);
    // A person's browser gets the site's own "page not found"; anything else the API's problem+json.
    const found = asset ?? (acceptsHtml(request) ? this.pages.notFoundPage : undefined);
    if (!found) throw new ProblemException(notFoundProblem(`Guide page "${path.slice(0, 100)}"`));
    void reply.headers(PAGE_HEADERS);
    void reply.header('cache-control', asset?.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    return reply.code(asset ? 200 : 404).type(found.contentType).send(found.body);
  }
}

function acceptsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b/.test(String(request.headers.accept ?? ''));
}
