import { Global, Module, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { KafkaConnection, RpcClient } from '@parley/kafka';
import { DataSource } from 'typeorm';
import { HealthController } from './health.controller';
import { Readiness } from './readiness';

/** Health endpoints, with readiness checks for whatever the service uses: its database and Kafka. */
@Global()
@Module({ controllers: [HealthController], providers: [Readiness], exports: [Readiness] })
export class HealthModule implements OnApplicationBootstrap {
  constructor(
    private readonly readiness: Readiness,
    @Optional() private readonly dataSource?: DataSource,
    @Optional() private readonly kafka?: KafkaConnection,
    @Optional() private readonly rpc?: RpcClient,
  ) {}

  onApplicationBootstrap(): void {
    const { dataSource, kafka, rpc } = this;
    if (dataSource) this.readiness.register('database', async () => void (await dataSource.query('SELECT 1')));
    if (kafka) {
      this.readiness.register('kafka', async () => {
        if (kafka.consumerState === 'crashed') throw new Error('the consumer crashed');
        if (kafka.consumerState === 'starting') throw new Error('the consumer is joining its group');
        const admin = await kafka.connectedAdmin();
        await admin.describeCluster();
        if (kafka.options.rpcClient && !rpc?.isReady) throw new Error('the reply consumer is not running yet');
      });
    }
  }
}
