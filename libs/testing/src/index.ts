export * from './poll';
export * from './infra';
export * from './kafka-harness';
export * from './fake-llm/fake-llm-server';
export * from './event-contracts';
export * from './private-postgres';
export * from './private-kafka';
export * from './fake-llm/fake-embeddings';
