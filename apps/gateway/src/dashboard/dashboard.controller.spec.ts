import { ProblemException } from '@parley/service-kit';
import type { FastifyReply } from 'fastify';
import { DashboardAssets } from './dashboard-assets';
import { DashboardController } from './dashboard.controller';

describe('DashboardController before the dashboard is built', () => {
  it('answers a retryable 503 (service-unavailable with Retry-After), and the page once the build appears', () => {
    const build = new Map<string, Buffer>();
    const controller = new DashboardController(new DashboardAssets(() => (build.size ? build : undefined)));
    const reply = { headers: jest.fn(), header: jest.fn(), type: jest.fn().mockReturnThis(), send: jest.fn().mockReturnThis() };

    let thrown: unknown;
    try {
      controller.page(reply as unknown as FastifyReply);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ProblemException);
    expect((thrown as ProblemException).problem).toMatchObject({ status: 503, type: 'https://parley.dev/problems/service-unavailable' });
    expect((thrown as ProblemException).headers).toEqual({ 'retry-after': '5' });

    build.set('index.html', Buffer.from('<!doctype html>'));
    controller.page(reply as unknown as FastifyReply);
    expect(reply.send).toHaveBeenCalledWith(Buffer.from('<!doctype html>'));
  });
});
