import type { INestApplication } from '@nestjs/common';
import type { EventEnvelope, Problem, RpcPattern, RpcRequest, RpcResponse } from '@parley/contracts';
import { RpcProblemError } from '@parley/kafka';
import { createServiceApp, loadConfig } from '@parley/service-kit';
import { startServiceUnderTest, type ServiceUnderTest } from '@parley/testing';
import { campaignServiceModule } from '../app.module';
import { CampaignServiceConfig } from '../config/campaign-service.config';
import { campaignServiceDatabase } from '../database/campaign-service.database';

/** campaign-service under test (libs/testing's harness), with helpers the specs share. */
export interface CampaignServiceUnderTest extends ServiceUnderTest<CampaignServiceConfig> {
  /** A request-reply call as the gateway makes it. */
  call<P extends RpcPattern>(pattern: P, request: RpcRequest<P>): Promise<RpcResponse<P>>;
  /** The problem a call answers with (fails the test when it succeeds). */
  problemOf<P extends RpcPattern>(pattern: P, request: RpcRequest<P>): Promise<Problem>;
  /** Publishes events as their producers would, keyed as they key them. */
  publish(...events: { envelope: EventEnvelope; key: string }[]): Promise<void>;
  /** Another instance on the same database and Kafka namespace; closed with this one. */
  startSecondInstance(): Promise<INestApplication>;
}

/**
 * Boots the service the way integration specs need it: a quick sweep, quiet logs, no template or number checks
 * (messaging-service is not running beside it) and no cost estimate (nor billing-service, unless a spec starts it); `env` overrides any setting. crm-service under test joins its namespace to answer audiences.
 */
export async function startCampaignService(label: string, env: Record<string, string> = {}): Promise<CampaignServiceUnderTest> {
  const settings = { NODE_ENV: 'development', LOG_LEVEL: 'error', CAMPAIGN_SWEEP_MS: '100', CAMPAIGN_MESSAGING_CHECKS: 'false', CAMPAIGN_BILLING_ESTIMATE: 'false', ...env };
  const service = await startServiceUnderTest(label, { database: campaignServiceDatabase, Config: CampaignServiceConfig, module: campaignServiceModule }, settings);
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
      const config = loadConfig(CampaignServiceConfig, { ...settings, DATABASE_URL: service.config.DATABASE_URL, KAFKA_BROKERS: service.config.KAFKA_BROKERS, KAFKA_TOPIC_PREFIX: service.config.KAFKA_TOPIC_PREFIX, PORT: '0' });
      const app = await createServiceApp(campaignServiceModule(config), { consumeKafka: true });
      await app.listen(0, '127.0.0.1');
      await app.startAllMicroservices();
      service.onClose(() => app.close());
      return app;
    },
  };
}
