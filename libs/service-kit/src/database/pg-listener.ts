import { Client } from 'pg';

/** First pause before reconnecting; it doubles per failed attempt up to RECONNECT_MAX_MS. */
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

export interface PgListenerOptions {
  /** The database whose notifications to hear (channels are per database, not per schema: name them per service). */
  url: string;
  channels: readonly string[];
  /** Shown in pg_stat_activity. */
  applicationName: string;
  /** Every notification on one of the channels. */
  onNotify: (channel: string, payload: string | undefined) => void;
  /**
   * Listening (again): on the first connect and after every reconnect. Notifications sent while no connection
   * listened are lost, so this is the moment to look for work once.
   */
  onListening?: () => void;
  warn?: (message: string) => void;
}

/**
 * PostgreSQL LISTEN on a dedicated connection (the pool's connections come and go; a LISTEN lives only as long as
 * its session). A lost connection is replaced with growing pauses and its channels listened to again, then
 * `onListening` runs, since whatever was notified in between went unheard. A notification only says "look now":
 * the work itself stays in its table, so the listener is an accelerator, never the only way work is found.
 */
export class PgListener {
  private client?: Client;
  private failures = 0;
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly options: PgListenerOptions) {}

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.options.url, application_name: this.options.applicationName, keepAlive: true });
    this.client = client;
    client.on('notification', (n) => this.options.onNotify(n.channel, n.payload));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('the connection ended')));
    try {
      await client.connect();
      for (const channel of this.options.channels) await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (err) {
      this.lost(client, err);
      return;
    }
    if (this.client !== client) return;
    if (this.failures > 0) this.options.warn?.(`listening to ${this.options.channels.join(', ')} again after ${this.failures} failed attempts`);
    this.failures = 0;
    this.options.onListening?.();
  }

  private lost(client: Client, err: unknown): void {
    if (this.client !== client) return; // already replaced (or stopped)
    this.client = undefined;
    client.removeAllListeners('notification');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    if (this.failures === 0) this.options.warn?.(`LISTEN connection lost, reconnecting: ${String(err)}`);
    const pause = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** this.failures);
    this.failures += 1;
    this.retry = setTimeout(() => void this.connect(), pause);
    this.retry.unref();
  }
}
