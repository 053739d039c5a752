import { Kafka, logLevel } from 'kafkajs';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';

const run = promisify(execFile);

/** The repository root (this file runs from libs/testing/src in the tests and from dist/libs/testing/src in tools). */
function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'tools/kafka/kafka.mjs'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('tools/kafka/kafka.mjs not found above ' + __dirname);
    dir = parent;
  }
  return dir;
}

/**
 * A Kafka broker of its own (tools/kafka/kafka.mjs with its own home folder and free ports, reusing the jars of the
 * shared development broker), so a test or a chaos scenario may stop and start it; the shared broker is never touched.
 * Its data survives `stopServer()`/`startServer()`, as a real broker's would.
 */
export class PrivateKafka {
  /** Last resort if the owner exits without remove(): the broker runs detached and would outlive it. */
  private readonly killOnExit = () => {
    try {
      process.kill(Number(readFileSync(join(this.home, 'broker.pid'), 'utf8').trim()), 'SIGKILL');
    } catch {
      /* not running */
    }
    rmSync(this.home, { recursive: true, force: true });
  };

  private constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly tool: string,
    readonly home: string,
    readonly brokers: string,
  ) {}

  static async start(label = 'kafka', baseDir = tmpdir()): Promise<PrivateKafka> {
    const root = repoRoot();
    mkdirSync(baseDir, { recursive: true });
    const home = mkdtempSync(join(baseDir, `parley-${label.replace(/[^a-z0-9]/gi, '')}-`));
    const port = await freePort();
    const sharedJars = join(root, '.kafka/lib');
    const env = {
      ...process.env,
      KAFKA_HOME_DIR: home,
      KAFKA_PORT: String(port),
      KAFKA_CONTROLLER_PORT: String(await freePort()),
      ...(existsSync(sharedJars) ? { KAFKA_LIB_DIR: sharedJars } : {}),
    };
    const broker = new PrivateKafka(env, join(root, 'tools/kafka/kafka.mjs'), home, `127.0.0.1:${port}`);
    process.once('exit', broker.killOnExit);
    try {
      await broker.startServer();
    } catch (err) {
      await broker.remove();
      throw err;
    }
    return broker;
  }

  /** Starts the (stopped) broker; resolves once it serves. */
  async startServer(): Promise<void> {
    await run(process.execPath, [this.tool, 'start'], { env: this.env, timeout: 150_000 });
  }

  /** Stops the broker (controlled shutdown; the tool kills it after 30 s). */
  async stopServer(): Promise<void> {
    await run(process.execPath, [this.tool, 'stop'], { env: this.env, timeout: 60_000 });
  }

  /** Reads `topic` of this broker from its beginning, collecting each message's parsed JSON value until `stop()`. */
  async probe<T = unknown>(topic: string): Promise<{ messages: T[]; stop(): Promise<void> }> {
    const consumer = new Kafka({ clientId: 'private-kafka-probe', brokers: [this.brokers], logLevel: logLevel.NOTHING }).consumer({
      groupId: `probe-${topic}-${Date.now().toString(36)}`,
    });
    const messages: T[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        messages.push(JSON.parse(message.value?.toString('utf8') ?? 'null') as T);
      },
    });
    return { messages, stop: () => consumer.disconnect() };
  }

  /** Stops it if still running and deletes its data. */
  async remove(): Promise<void> {
    process.removeListener('exit', this.killOnExit);
    await this.stopServer().catch(() => undefined);
    rmSync(this.home, { recursive: true, force: true });
  }
}
