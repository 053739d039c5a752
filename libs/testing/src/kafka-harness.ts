import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPublisher, KafkaConnection, KafkaModule, RpcClient, TopicProbe } from '@parley/kafka';
import { testInfra } from './infra';

/**
 * A bare Kafka client inside the tests' namespace: call services over request-reply, publish events as another
 * service would, and probe topics for what a service published.
 */
export class KafkaHarness {
  private constructor(
    private readonly app: INestApplicationContext,
    readonly rpc: RpcClient,
    readonly publisher: EventPublisher,
    readonly connection: KafkaConnection,
  ) {}

  static async start(namespace: string): Promise<KafkaHarness> {
    @Module({
      imports: [
        KafkaModule.forRootAsync({
          useFactory: () => ({ brokers: testInfra().kafkaBrokers.split(','), clientId: 'test-harness', namespace, rpcClient: true, rpcTimeoutMs: 20_000 }),
        }),
      ],
    })
    class HarnessModule {}
    const app = await NestFactory.createApplicationContext(HarnessModule, { logger: ['error'] });
    await app.init();
    const harness = new KafkaHarness(app, app.get(RpcClient), app.get(EventPublisher), app.get(KafkaConnection));
    await harness.publisher.connect();
    await harness.rpc.ready();
    return harness;
  }

  probe<T>(topic: string): Promise<TopicProbe<T>> {
    return new TopicProbe<T>(this.connection, topic).start();
  }

  async close(): Promise<void> {
    await this.app.close();
  }
}
