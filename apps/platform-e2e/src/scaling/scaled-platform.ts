import { createTestDatabase, type TestDatabase } from '@parley/testing';
import { join } from 'node:path';
// The stack runner behind `npm start` (tools/dev, plain CommonJS), as in ../support/platform.ts.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { APPS, ROOT, Stack, freePorts, runMigrations, type AppName } from '../../../../tools/dev/lib/stack.cjs';
import { platformEnv } from '../support/platform';

/** The services that get a second instance: every Kafka consumer, and the gateway (request-reply caller). */
export const SCALED_APPS = ['gateway', 'messaging-service', 'responder-service', 'webhook-service'] as const;
export type ScaledApp = (typeof SCALED_APPS)[number];

/**
 * The whole built system with two instances of each scaled service: separate processes on one database and one
 * Kafka namespace, so each pair shares its consumer groups exactly as two replicas in production would. Every
 * second instance runs under a stack of its own, so it can be stopped alone. Output lines are kept per instance.
 */
export class ScaledPlatform {
  private constructor(
    /** Output lines of each service, per instance (0: first, 1: second). */
    readonly lines: Record<0 | 1, Partial<Record<AppName, string[]>>>,
    private readonly first: Stack,
    private readonly second: Map<ScaledApp, Stack>,
    private readonly db: TestDatabase,
  ) {}

  static async start(): Promise<ScaledPlatform> {
    const db = await createTestDatabase('scaling');
    const env = platformEnv(db, 'scaling');
    // Both instances' ports in one ask, so all are distinct: ports asked for apart, each set freed before its services
    // bind it, could repeat one (a second webhook-service once found its port taken by a first instance). A second
    // messaging-service listens for mail on a port of its own.
    const secondNames = [...SCALED_APPS, 'messaging-smtp'].map((name) => `${name}#2`);
    const all = await freePorts([...APPS, 'messaging-smtp', 'sandbox-smtp', ...secondNames]);
    const ports = Object.fromEntries([...APPS, 'messaging-smtp', 'sandbox-smtp'].map((name) => [name, all[name]]));
    const secondPorts = Object.fromEntries([...SCALED_APPS, 'messaging-smtp'].map((name) => [name, all[`${name}#2`]]));
    const logDir = (instance: number) => join(ROOT, 'tmp', 'logs', 'e2e-scaling', `instance-${instance}`);
    const log = (message: string) => process.stderr.write(`[scaling-e2e] ${message}\n`);
    const lines: Record<0 | 1, Partial<Record<AppName, string[]>>> = { 0: {}, 1: {} };
    const keep = (instance: 0 | 1) => (app: AppName, line: string) => void (lines[instance][app] ??= []).push(line);

    const first = new Stack({ env, ports, logDir: logDir(0), restart: false, log, onLine: keep(0) });
    const second = new Map(
      SCALED_APPS.map((app) => [app, new Stack({ env, ports: { ...ports, [app]: secondPorts[app], 'messaging-smtp': secondPorts['messaging-smtp'] }, apps: [app], logDir: logDir(1), restart: false, log, onLine: keep(1) })]),
    );
    const platform = new ScaledPlatform(lines, first, second, db);
    try {
      await runMigrations(env);
      // The first instances, then the second ones: ten processes booting at once overload a small machine.
      await first.start({ timeoutMs: 120_000 });
      await Promise.all([...second.values()].map((stack) => stack.start({ timeoutMs: 120_000 })));
    } catch (err) {
      await platform.stop();
      throw err;
    }
    return platform;
  }

  url(app: AppName, instance: 0 | 1 = 0): string {
    return instance === 1 ? this.second.get(app as ScaledApp)!.url(app) : this.first.url(app);
  }

  /** Stops the second instance of a service (SIGTERM, as an orchestrator scaling down does). */
  stopSecond(app: ScaledApp): Promise<void> {
    return this.second.get(app)!.stop();
  }

  async stop(): Promise<void> {
    await Promise.all([this.first, ...this.second.values()].map((stack) => stack.stop()));
    await this.db.drop();
  }
}

/** The sum of a Prometheus counter over its label sets, from a `GET /metrics` answer. */
export function counterTotal(metrics: string, name: string): number {
  return metrics
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}
