import { RpcTopics, TOPIC_SPECS } from '@parley/contracts';
import { KafkaConnection, retryRetriable } from '@parley/kafka';
import { ConfigResourceTypes } from 'kafkajs';
import { testInfra, uniqueKafkaNamespace } from './infra';

describe('KafkaConnection.ensureTopics on a broker whose topics predate their spec (real broker)', () => {
  const namespace = uniqueKafkaNamespace('topiccfg');
  const connection = new KafkaConnection({ brokers: testInfra().kafkaBrokers.split(','), clientId: 'topic-config-test', namespace });
  const spec = TOPIC_SPECS.find((s) => s.name === RpcTopics.agents)!;
  const name = `${namespace}${spec.name}`;

  afterAll(async () => {
    const admin = await connection.connectedAdmin();
    await admin.deleteTopics({ topics: [name] }).catch(() => undefined);
    await connection.onApplicationShutdown();
  });

  it("raises a topic's max.message.bytes to its spec's (document uploads ride rpc.agent-service), writing the spec's other settings too", async () => {
    expect(spec.config).toMatchObject({ 'max.message.bytes': expect.any(String), 'retention.ms': expect.any(String) });
    const admin = await connection.connectedAdmin();
    // As an older version of the platform created it: the broker's default limit (1 MiB).
    // (kafkajs's waitForLeaders retries only "leader not available": a busy KRaft broker first answers "does not host
    // this topic-partition" for a topic it has just created, so wait until it serves the topic, as ensureTopics does)
    await admin.createTopics({ waitForLeaders: false, topics: [{ topic: name, numPartitions: 1, replicationFactor: -1 }] });
    await retryRetriable(() => admin.fetchTopicOffsets(name));
    const read = async () => {
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name, configNames: ['max.message.bytes', 'retention.ms'] }],
      });
      return Object.fromEntries(resources[0].configEntries.map((e) => [e.configName, e.configValue]));
    };
    expect(Number((await read())['max.message.bytes'])).toBeLessThan(Number(spec.config!['max.message.bytes']));

    await connection.ensureTopics([spec]);
    expect(await read()).toEqual({ 'max.message.bytes': spec.config!['max.message.bytes'], 'retention.ms': spec.config!['retention.ms'] });
  });
});
