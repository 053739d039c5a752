import { RpcTopics } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { GatewayTestApp, type CreatedAccount, type HttpAnswer } from './gateway-test-app';

/** What a spec of forwarded routes works with (set before its first test). */
export interface ForwardedRoutes {
  gw: GatewayTestApp;
  account: CreatedAccount;
  /** What reached the service's request topic. */
  requests: TopicProbe<Record<string, unknown>>;
  /** A call to `/api/v1${path}` with the account's API key. */
  call(method: string, path: string, body?: unknown): Promise<HttpAnswer>;
}

/**
 * For a spec of routes the gateway forwards to one service that is not running here (its behaviour is tested in its
 * own project), so the spec shows what the gateway answers itself and what reaches the service's request topic: a
 * gateway with an account, and a probe on that topic, started before the spec's tests and stopped after them.
 */
export function forwardedRoutes(label: string, service: keyof typeof RpcTopics): ForwardedRoutes {
  const routes = {
    call: (method: string, path: string, body?: unknown) => routes.gw.request(method, `/api/v1${path}`, { token: routes.account.api_key, body }),
  } as ForwardedRoutes;

  beforeAll(async () => {
    routes.gw = await GatewayTestApp.start(label);
    routes.account = await routes.gw.signUp();
    routes.requests = await routes.gw.kafka.probe(RpcTopics[service]);
  });

  afterAll(async () => {
    await routes.requests?.stop();
    await routes.gw?.close();
  });

  return routes;
}
