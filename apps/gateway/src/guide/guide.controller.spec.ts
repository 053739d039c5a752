import { ProblemException, loadConfig } from '@parley/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { gatewayModule } from '../app.module';
import { GatewayConfig } from '../config/gateway.config';
import { GuideController } from './guide.controller';
import { GuideModule } from './guide.module';
import { GuidePages } from './guide-pages';

const html = (title: string) => Buffer.from(`<!doctype html><title>${title}</title>`);

function fakeReply() {
  const reply = { statusCode: 0, body: undefined as unknown, headers: jest.fn(), header: jest.fn(), type: jest.fn(), send: jest.fn(), code: jest.fn(), redirect: jest.fn() };
  reply.redirect.mockImplementation(() => reply);
  reply.headers.mockReturnValue(reply);
  reply.header.mockReturnValue(reply);
  reply.type.mockReturnValue(reply);
  reply.code.mockImplementation((status: number) => ((reply.statusCode = status), reply));
  reply.send.mockImplementation((body: unknown) => ((reply.body = body), reply));
  return reply;
}

/** The ProblemException a request ends in (undefined when it answered). */
function problemOf(controller: GuideController, url: string, accept?: string) {
  try {
    get(controller, url, accept);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(ProblemException);
    return (err as ProblemException).problem;
  }
}

function get(controller: GuideController, url: string, accept = 'text/html,application/xhtml+xml,*/*;q=0.8') {
  const reply = fakeReply();
  const request = { url, headers: { accept } } as unknown as FastifyRequest;
  if (url === '/guide' || url === '/guide/') controller.root(request, reply as unknown as FastifyReply);
  else controller.page(request, reply as unknown as FastifyReply);
  return reply;
}

describe('GuideController', () => {
  const build = new Map<string, Buffer>();
  const controller = new GuideController(new GuidePages(() => (build.size ? build : undefined)));

  it('answers a retryable 503 naming `npm run docs` until the site is built', () => {
    expect(problemOf(controller, '/guide/quickstart')).toMatchObject({ status: 503, detail: expect.stringContaining('npm run docs') });
  });

  it('serves the built pages by their clean URLs, and the site\'s own 404 page for a page it does not have', () => {
    build.set('index.html', html('home')).set('quickstart.html', html('quickstart')).set('404.html', html('not found'));
    const root = get(controller, '/guide/');
    expect(root.statusCode).toBe(200);
    expect(String(root.body)).toContain('home');
    expect(get(controller, '/guide').redirect).toHaveBeenCalledWith('/guide/', 301);
    const page = get(controller, '/guide/quickstart');
    expect(page.statusCode).toBe(200);
    expect(String(page.body)).toContain('quickstart');
    expect(page.headers).toHaveBeenCalledWith(expect.objectContaining({ 'content-security-policy': expect.stringContaining("default-src 'self'") }));
    const missing = get(controller, '/guide/no-such-page');
    expect(missing.statusCode).toBe(404);
    expect(String(missing.body)).toContain('not found');
    expect(String(get(controller, '/guide/%E0%A4%A').body)).toContain('not found'); // not percent-encoding: no page, no 500
    // a program (no text/html in Accept) gets the API's problem+json, as on every other route
    expect(problemOf(controller, '/guide/no-such-page', 'application/json')).toMatchObject({ status: 404 });
    expect(problemOf(controller, '/guide/no-such-page', '*/*')).toMatchObject({ status: 404 });
  });
});

describe('the gateway module', () => {
  const importsOf = (nodeEnv: string) => {
    const config = Object.assign(loadConfig(GatewayConfig), { NODE_ENV: nodeEnv });
    return Reflect.getMetadata('imports', gatewayModule(config)) as unknown[];
  };

  it('serves the docs site in development and not in production', () => {
    expect(importsOf('development')).toContain(GuideModule);
    expect(importsOf('production')).not.toContain(GuideModule);
  });
});
