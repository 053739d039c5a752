import { Module, type DynamicModule, type InjectionToken, type OptionalFactoryDependency } from '@nestjs/common';
import { EventPublisher } from './event-publisher';
import { KafkaConnection } from './kafka-connection';
import { KAFKA_OPTIONS, type KafkaOptions } from './kafka.options';
import { RpcClient } from './rpc-client';

/** Provides the process's Kafka connection, the batching publisher and the request-reply client. */
@Module({})
export class KafkaModule {
  static forRootAsync(options: {
    useFactory: (...args: never[]) => KafkaOptions;
    inject?: (InjectionToken | OptionalFactoryDependency)[];
  }): DynamicModule {
    return {
      module: KafkaModule,
      global: true,
      providers: [{ provide: KAFKA_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] }, KafkaConnection, EventPublisher, RpcClient],
      exports: [KafkaConnection, EventPublisher, RpcClient],
    };
  }
}
