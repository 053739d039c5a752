import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';

const run = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';

/** The newest PostgreSQL server binaries on the machine (PG_BIN_DIR wins). */
function binDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const versions = existsSync(PG_ROOT) ? readdirSync(PG_ROOT).filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'pg_ctl'))) : [];
  if (versions.length === 0) throw new Error(`no PostgreSQL server binaries under ${PG_ROOT} (set PG_BIN_DIR)`);
  return join(PG_ROOT, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` OS user. */
function asServerUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/**
 * A PostgreSQL cluster of a test's (or a chaos scenario's) own: initdb into a fresh folder, a free port, trust
 * authentication, no fsync. It may be stopped and restarted at will; the machine's server on 5432 is never touched.
 */
export class PrivatePostgres {
  private readonly killOnExit = () => this.stopSync();

  private constructor(
    readonly home: string,
    readonly port: number,
    private readonly bin: string,
    private readonly owner: { uid: number; gid: number } | undefined,
  ) {}

  /** `postgres://postgres@127.0.0.1:<port>/<database>`. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private get dataDir(): string {
    return join(this.home, 'data');
  }

  get logFile(): string {
    return join(this.home, 'postgres.log');
  }

  /** Creates and starts a cluster in a new folder under `baseDir` (default: the OS temp folder). */
  static async start(label = 'pg', baseDir = tmpdir()): Promise<PrivatePostgres> {
    mkdirSync(baseDir, { recursive: true });
    const home = mkdtempSync(join(baseDir, `parley-${label.replace(/[^a-z0-9]/gi, '')}-`));
    const owner = asServerUser();
    if (owner) chownSync(home, owner.uid, owner.gid);
    const pg = new PrivatePostgres(home, await freePort(), binDir(), owner);
    try {
      await pg.command('initdb', ['-D', pg.dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'], 120_000);
      process.once('exit', pg.killOnExit);
      await pg.startServer();
    } catch (err) {
      await pg.remove();
      throw err;
    }
    return pg;
  }

  private command(tool: string, args: string[], timeout: number) {
    const file = join(this.bin, tool);
    return this.owner
      ? run('runuser', ['-u', 'postgres', '--', file, ...args], { timeout, cwd: this.home })
      : run(file, args, { timeout, cwd: this.home });
  }

  /** Starts the (stopped) server and waits until it accepts connections. */
  async startServer(): Promise<void> {
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.home} -c fsync=off -c full_page_writes=off -c max_connections=200`;
    await this.command('pg_ctl', ['-D', this.dataDir, '-l', this.logFile, '-o', options, '-w', '-t', '60', 'start'], 90_000);
  }

  /** Stops the server: `fast` (clients disconnected, clean shutdown) or `immediate` (as in a crash). */
  async stopServer(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.command('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop'], 90_000);
  }

  /** `pg_ctl restart -m <mode>`: resolves once the server accepts connections again. */
  async restart(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.stopServer(mode);
    await this.startServer();
  }

  private stopSync(): void {
    try {
      const args = ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop'];
      const file = join(this.bin, 'pg_ctl');
      if (this.owner) execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: 'ignore', timeout: 30_000 });
      else execFileSync(file, args, { stdio: 'ignore', timeout: 30_000 });
    } catch {
      /* not running */
    }
  }

  /** Stops the server if it runs and deletes the cluster. */
  async remove(): Promise<void> {
    process.removeListener('exit', this.killOnExit);
    await this.stopServer('immediate').catch(() => undefined);
    rmSync(this.home, { recursive: true, force: true });
  }
}
