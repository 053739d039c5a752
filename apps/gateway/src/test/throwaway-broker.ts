import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '../../../..');
const KAFKA_TOOL = join(ROOT, 'tools/kafka/kafka.mjs');
/** The jars the shared development broker was started from (fetched once by `npm run kafka:start`). */
const SHARED_JARS = join(ROOT, '.kafka/lib');

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A Kafka broker of a test's own (tools/kafka/kafka.mjs with its own home folder and ports), so the test may stop
 * it; the shared broker on 9092 is never touched.
 */
export class ThrowawayBroker {
  private constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly home: string,
    readonly brokers: string,
  ) {}

  static async start(): Promise<ThrowawayBroker> {
    const home = mkdtempSync(join(tmpdir(), 'parley-kafka-'));
    const port = await freePort();
    const env = {
      ...process.env,
      KAFKA_HOME_DIR: home,
      KAFKA_PORT: String(port),
      KAFKA_CONTROLLER_PORT: String(await freePort()),
      ...(existsSync(SHARED_JARS) ? { KAFKA_LIB_DIR: SHARED_JARS } : {}),
    };
    const broker = new ThrowawayBroker(env, home, `127.0.0.1:${port}`);
    try {
      await run(process.execPath, [KAFKA_TOOL, 'start'], { env, timeout: 150_000 });
    } catch (err) {
      await broker.remove();
      throw err;
    }
    return broker;
  }

  /** Stops the broker (controlled shutdown; the tool kills it after 30 s). */
  async stop(): Promise<void> {
    await run(process.execPath, [KAFKA_TOOL, 'stop'], { env: this.env, timeout: 60_000 });
  }

  /** Stops it if still running and deletes its data. */
  async remove(): Promise<void> {
    await this.stop().catch(() => undefined);
    rmSync(this.home, { recursive: true, force: true });
  }
}
