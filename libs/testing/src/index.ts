export * from './poll';
export * from './infra';
export * from './kafka-harness';
