import type { INestApplication } from '@nestjs/common';
import type { EventEnvelope, Problem, RpcPattern, RpcRequest, RpcResponse } from '@parley/contracts';
import { RpcProblemError } from '@parley/kafka';
import { createServiceApp, loadConfig } from '@parley/service-kit';
import { startServiceUnderTest, type ServiceUnderTest } from '@parley/testing';
import { crmServiceModule } from '../app.module';
import { CrmServiceConfig } from '../config/crm-service.config';
import { crmServiceDatabase } from '../database/crm-service.database';

/** crm-service under test (libs/testing's harness), with helpers the specs share. */
export interface CrmServiceUnderTest extends ServiceUnderTest<CrmServiceConfig> {
  /** A request-reply call as the gateway makes it. */
  call<P extends RpcPattern>(pattern: P, request: RpcRequest<P>): Promise<RpcResponse<P>>;
  /** The problem a call answers with (fails the test when it succeeds). */
  problemOf<P extends RpcPattern>(pattern: P, request: RpcRequest<P>): Promise<Problem>;
  /** Publishes events as their producers would, keyed as they key them. */
  publish(...events: { envelope: EventEnvelope; key: string }[]): Promise<void>;
  /** Another instance of the service on the same database and Kafka namespace (same consumer group); closed with this one. */
  startSecondInstance(): Promise<INestApplication>;
}

/** Boots the service the way integration specs need it: a quick outbox sweep, quiet logs; `env` overrides any setting. */
export async function startCrmService(label: string, env: Record<string, string> = {}): Promise<CrmServiceUnderTest> {
  const settings = { NODE_ENV: 'development', LOG_LEVEL: 'error', CRM_OUTBOX_SWEEP_MS: '200', ...env };
  const service = await startServiceUnderTest(label, { database: crmServiceDatabase, Config: CrmServiceConfig, module: crmServiceModule }, settings);
  const call = <P extends RpcPattern>(pattern: P, request: RpcRequest<P>) => service.kafka.rpc.request(pattern, request);
  return {
    ...service,
    call,
    async problemOf(pattern, request) {
      const outcome = await call(pattern, request).then(
        (answer) => ({ answer }),
        (err: unknown) => ({ err }),
      );
      if (!('err' in outcome)) throw new Error(`${pattern} answered ${JSON.stringify(outcome.answer)}, not a problem`);
      if (!(outcome.err instanceof RpcProblemError)) throw outcome.err;
      return outcome.err.problem;
    },
    publish: (...events) => service.kafka.publisher.publish(events.map(({ envelope, key }) => ({ topic: envelope.type, key, value: envelope }))),
    async startSecondInstance() {
      const config = loadConfig(CrmServiceConfig, { ...settings, DATABASE_URL: service.config.DATABASE_URL, KAFKA_BROKERS: service.config.KAFKA_BROKERS, KAFKA_TOPIC_PREFIX: service.config.KAFKA_TOPIC_PREFIX, PORT: '0' });
      const app = await createServiceApp(crmServiceModule(config), { consumeKafka: true });
      await app.listen(0, '127.0.0.1');
      await app.startAllMicroservices();
      service.onClose(() => app.close());
      return app;
    },
  };
}
