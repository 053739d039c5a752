import { checkInfrastructure, ensureKafka, toolLines, type Broker, type Probe } from './infrastructure.cjs';

// What `npm start`, `npm test` and the tools (bench, chaos, soak, fuzz) decide about the infrastructure, with the
// network checks and tools/kafka replaced: reuse the broker named, start the local one, or refuse with one line.
const LOCAL = '127.0.0.1:9092';

function localKafka(result: Broker | Error = { brokers: LOCAL, started: true }) {
  return {
    brokerAddress: LOCAL,
    startBroker: jest.fn(async () => {
      if (result instanceof Error) throw result;
      return result;
    }),
  };
}

const answers: Probe = async () => undefined;
const refused: Probe = async () => 'ECONNREFUSED';

async function failure(promise: Promise<unknown>): Promise<Error & { hint?: string }> {
  try {
    await promise;
  } catch (err) {
    return err as Error & { hint?: string };
  }
  throw new Error('expected a rejection');
}

describe('ensureKafka: which broker a command runs on', () => {
  it('KAFKA_BROKERS unset: the local broker, started when it is not running (the caller then stops it)', async () => {
    const kafka = localKafka({ brokers: LOCAL, started: true });
    const probe = jest.fn(refused);
    await expect(ensureKafka({}, { kafka, processEnv: {}, probe })).resolves.toEqual({ brokers: LOCAL, started: true });
    expect(kafka.startBroker).toHaveBeenCalledTimes(1);
    expect(probe).not.toHaveBeenCalled();
  });

  it("KAFKA_BROKERS naming the local broker's address (.env.example's default): the running one is reused, not owned", async () => {
    const kafka = localKafka({ brokers: LOCAL, started: false });
    await expect(ensureKafka({ KAFKA_BROKERS: LOCAL }, { kafka, processEnv: {}, probe: refused })).resolves.toEqual({ brokers: LOCAL, started: false });
    expect(kafka.startBroker).toHaveBeenCalledTimes(1);
  });

  it('another address that answers: used as it is, nothing started', async () => {
    const kafka = localKafka();
    const probe = jest.fn(answers);
    const env = { KAFKA_BROKERS: '10.0.0.5:9092,10.0.0.6:9092' };
    await expect(ensureKafka(env, { kafka, processEnv: env, probe })).resolves.toEqual({ brokers: '10.0.0.5:9092,10.0.0.6:9092', started: false });
    expect(probe).toHaveBeenCalledWith('10.0.0.5', 9092);
    expect(kafka.startBroker).not.toHaveBeenCalled();
  });

  it('another address where nothing answers: refused, nothing started, one line saying what to run', async () => {
    const kafka = localKafka();
    const env = { KAFKA_BROKERS: '10.0.0.5:9092' };
    const err = await failure(ensureKafka(env, { kafka, processEnv: env, probe: refused }));
    expect(kafka.startBroker).not.toHaveBeenCalled();
    expect(toolLines('bench', err)).toEqual([
      'bench: no Kafka broker answers at 10.0.0.5:9092 (KAFKA_BROKERS: ECONNREFUSED). Start one there, or unset KAFKA_BROKERS to run on the local ' +
        'broker (started for you when it is not running, as `npm run kafka:start` does).',
    ]);
  });

  it('the address set in .env rather than the environment: the line says to remove it from .env', async () => {
    const err = await failure(ensureKafka({ KAFKA_BROKERS: '10.0.0.5:9092' }, { kafka: localKafka(), processEnv: {}, probe: async () => 'timed out' }));
    expect(err.message).toBe('no Kafka broker answers at 10.0.0.5:9092 (KAFKA_BROKERS in .env: timed out)');
    expect(err.hint).toMatch(/^start one there, or remove KAFKA_BROKERS from \.env to run on the local broker/);
  });

  it("the local broker failing to start: one line, the broker log's tail left to the log it names", async () => {
    const kafka = localKafka(new Error('the broker exited during start-up; last lines of /x/.kafka/broker.log:\nERROR one\nERROR two'));
    const lines = toolLines('soak', await failure(ensureKafka({}, { kafka, processEnv: {}, probe: refused })));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^soak: the local Kafka broker could not start: the broker exited during start-up; last lines of \/x\/\.kafka\/broker\.log\. The broker needs a JDK 17\+/);
  });
});

describe('checkInfrastructure: PostgreSQL and Redis, as npm start checks them', () => {
  const env = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres', REDIS_URL: 'redis://127.0.0.1:6379' };

  it('both answering: says where', async () => {
    await expect(checkInfrastructure(env, { tcp: answers, redis: async () => undefined })).resolves.toBe('PostgreSQL at 127.0.0.1:5432, Redis at 127.0.0.1:6379');
  });

  it('each missing server: a line of its own for the tool, saying how to start it', async () => {
    const err = await failure(checkInfrastructure(env, { tcp: refused, redis: async () => 'ECONNREFUSED' }));
    const lines = toolLines('fuzz', err);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^fuzz: PostgreSQL is not reachable at 127\.0\.0\.1:5432 \(ECONNREFUSED\)\. Start it \(e\.g\. `sudo service postgresql start`\)/);
    expect(lines[1]).toMatch(/^fuzz: Redis is not reachable at 127\.0\.0\.1:6379 \(ECONNREFUSED\)\. Start it/);
  });
});
