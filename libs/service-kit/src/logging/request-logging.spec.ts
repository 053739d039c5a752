import { Controller, Get, Module, NotFoundException } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LoggerModule } from 'nestjs-pino';
import { createServiceApp } from '../bootstrap';
import { loggerParams } from './logging';

@Controller('probe')
class ProbeController {
  @Get('ok')
  ok(): { ok: true } {
    return { ok: true };
  }

  @Get('missing')
  missing(): never {
    throw new NotFoundException();
  }

  @Get('broken')
  broken(): never {
    throw new Error('boom');
  }
}

/** Every line the app writes (pino writes through process.stdout.write). */
function captureOutput(): { lines: () => Record<string, unknown>[]; stop: () => void } {
  const written: string[] = [];
  const original = { out: process.stdout.write, err: process.stderr.write };
  const capture = (chunk: unknown) => {
    written.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  };
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
  return {
    lines: () => written.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>),
    stop: () => {
      process.stdout.write = original.out;
      process.stderr.write = original.err;
    },
  };
}

async function appAt(level: string): Promise<NestFastifyApplication> {
  @Module({ imports: [LoggerModule.forRoot(loggerParams('probe', level))], controllers: [ProbeController] })
  class ProbeModule {}
  const app = await createServiceApp(ProbeModule);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

const requestLines = (lines: Record<string, unknown>[]) => lines.filter((l) => l.msg === 'request completed');

describe('request logging (issue 19: quiet on success, every failure logged)', () => {
  it('at info: a line for each failed request with its id, method, URL and status, none for a success', async () => {
    const output = captureOutput();
    const app = await appAt('info');
    try {
      const fastify = app.getHttpAdapter().getInstance();
      for (let i = 0; i < 3; i++) expect((await fastify.inject({ method: 'GET', url: '/probe/ok' })).statusCode).toBe(200);
      expect((await fastify.inject({ method: 'GET', url: '/probe/missing?token=abc', headers: { 'x-request-id': 'req-404' } })).statusCode).toBe(404);
      expect((await fastify.inject({ method: 'GET', url: '/probe/broken' })).statusCode).toBe(500);
      const lines = requestLines(output.lines());
      expect(lines.map((l) => (l.res as { statusCode: number }).statusCode)).toEqual([404, 500]);
      expect(lines[0]).toMatchObject({ level: 30, service: 'probe', req: { id: 'req-404', method: 'GET' }, res: { statusCode: 404 } });
      expect(typeof lines[0].responseTime).toBe('number');
      expect(lines[1]).toMatchObject({ level: 50 });
    } finally {
      await app.close();
      output.stop();
    }
  });

  it('at debug: successes are logged too', async () => {
    const output = captureOutput();
    const app = await appAt('debug');
    try {
      const fastify = app.getHttpAdapter().getInstance();
      await fastify.inject({ method: 'GET', url: '/probe/ok' });
      expect(requestLines(output.lines())).toEqual([expect.objectContaining({ level: 20, req: expect.objectContaining({ url: '/probe/ok' }), res: { statusCode: 200 } })]);
    } finally {
      await app.close();
      output.stop();
    }
  });
});
