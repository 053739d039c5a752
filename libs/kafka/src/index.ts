export * from './kafka.options';
export * from './errors';
export * from './kafka-connection';
export * from './event-publisher';
export * from './kafka-transport';
export * from './rpc-client';
export * from './kafka.module';
export * from './testing/topic-probe';
