import { plainToInstance } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';
import { DEFAULT_HTTP_TIMEOUTS } from '../http/http-timeouts';

const SECRET_DEFAULTS = Symbol('secretDefaults');
const EMPTY_SWITCHES_OFF = Symbol('emptySwitchesOff');

/**
 * Marks a setting as a secret whose development default must never run in production:
 * with NODE_ENV=production a service refuses to start while the value still equals that default.
 */
export function Secret(): PropertyDecorator {
  return (target, property) => {
    const ctor = target.constructor as unknown as { [SECRET_DEFAULTS]?: string[] };
    ctor[SECRET_DEFAULTS] = [...(ctor[SECRET_DEFAULTS] ?? []), String(property)];
  };
}

/**
 * Marks a setting whose empty value means "none" (e.g. `MAIL_SMTP_URL=`: send no mail). Elsewhere an empty variable
 * means "the default", as if it were not set; here it is taken as given.
 */
export function EmptySwitchesOff(): PropertyDecorator {
  return (target, property) => {
    const ctor = target.constructor as unknown as { [EMPTY_SWITCHES_OFF]?: string[] };
    ctor[EMPTY_SWITCHES_OFF] = [...(ctor[EMPTY_SWITCHES_OFF] ?? []), String(property)];
  };
}

/**
 * Settings every service has. Each app extends it with its own; property initialisers are the development
 * defaults (also listed in .env.example). Values come from the environment only through `loadConfig`.
 */
export class BaseConfig {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @IsString()
  HOST = '127.0.0.1';

  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 0;

  /**
   * Port of `GET /metrics` (CONTRACT.md §8: in production on an internal port only). Empty (the default): the
   * service's own port in development; in production `PORT + 1000` (gateway 4000, agent-service 4001, …), and the
   * public port answers 404 for it. See `metricsPort`.
   */
  @Matches(/^\d{0,5}$/, { message: 'METRICS_PORT must be a port number, or empty for the default' })
  METRICS_PORT = '';

  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/parley';

  /**
   * The statements a service runs again go as named prepared statements, parsed and planned once per connection
   * (database/prepared-statements.ts). Off for a pooler in front of PostgreSQL that cannot carry them: PgBouncer in
   * transaction mode before 1.21, or without `max_prepared_statements`.
   */
  @IsBoolean()
  DATABASE_PREPARED_STATEMENTS = true;

  @Matches(/^[^,\s]+(,[^,\s]+)*$/, { message: 'KAFKA_BROKERS must be a comma-separated host:port list' })
  KAFKA_BROKERS = '127.0.0.1:9092';

  /** Prefix of every topic and consumer group (tests isolate runs with it). */
  @Matches(/^[A-Za-z0-9._-]*$/)
  KAFKA_TOPIC_PREFIX = '';

  /**
   * How long the broker may hold an idle consumer's fetch (KafkaOptions.fetchMaxWaitMs). Stopping the service waits
   * for the fetches in flight, so this bounds shutdown; the integration tests, which stop services hundreds of
   * times, use a short one. New messages are delivered at once whatever it is.
   */
  @IsInt()
  @Min(10)
  @Max(30_000)
  KAFKA_FETCH_MAX_WAIT_MS = 5000;

  /**
   * How long a graceful shutdown (SIGTERM, SIGINT) may take before the service exits anyway (lifecycle/shutdown.ts):
   * below an orchestrator's grace (the development supervisor's is 10 s, Kubernetes' 30 s) so it is the service that
   * says what hung.
   */
  @IsInt()
  @Min(1000)
  SHUTDOWN_GRACE_MS = 8000;

  @Matches(/^redis(s)?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /**
   * Key of the list cursors' HMAC (pagination/list-cursors.ts). Not a `@Secret()`: a cursor only names a position in
   * the caller's own list, so the development key makes cursors tamper-evident in production too; set one to make
   * them unforgeable as well. Each service reads back only the cursors it handed out, so services need not share it.
   */
  @IsString()
  @MinLength(1)
  CURSOR_SECRET = 'dev-cursor-secret';

  /** HTTP server deadlines against slow clients (see http/http-timeouts.ts). */
  @IsInt()
  @Min(1)
  HTTP_HEADERS_TIMEOUT_MS = DEFAULT_HTTP_TIMEOUTS.HTTP_HEADERS_TIMEOUT_MS;

  @IsInt()
  @Min(1)
  HTTP_REQUEST_TIMEOUT_MS = DEFAULT_HTTP_TIMEOUTS.HTTP_REQUEST_TIMEOUT_MS;

  @IsInt()
  @Min(1)
  HTTP_KEEP_ALIVE_TIMEOUT_MS = DEFAULT_HTTP_TIMEOUTS.HTTP_KEEP_ALIVE_TIMEOUT_MS;

  @IsInt()
  @Min(10)
  HTTP_TIMEOUT_CHECK_INTERVAL_MS = DEFAULT_HTTP_TIMEOUTS.HTTP_TIMEOUT_CHECK_INTERVAL_MS;

  get isProduction(): boolean {
    return this.NODE_ENV === 'production';
  }

  /** Where `GET /metrics` is served: null on the service's own port, else that internal port (0: any free one). */
  get metricsPort(): number | null {
    if (this.METRICS_PORT !== '') {
      const port = Number(this.METRICS_PORT);
      return port === this.PORT ? null : port;
    }
    if (!this.isProduction) return null;
    return this.PORT === 0 ? 0 : this.PORT + 1000;
  }

  get kafkaBrokers(): string[] {
    return this.KAFKA_BROKERS.split(',');
  }
}

/**
 * Reads the environment into `Config` once, at boot: defaults for what is unset, then validation that names each
 * invalid variable. Fails fast; nothing else in a service reads process.env.
 */
export function loadConfig<T extends BaseConfig>(Config: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const defaults = new Config();
  const emptySwitchesOff = new Set((Config as unknown as { [EMPTY_SWITCHES_OFF]?: string[] })[EMPTY_SWITCHES_OFF] ?? []);
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(defaults)) {
    const fallback = (defaults as unknown as Record<string, unknown>)[key];
    const value = env[key];
    if (value === undefined || (value === '' && !emptySwitchesOff.has(key))) raw[key] = fallback;
    else raw[key] = typeof fallback === 'number' ? Number(value) : typeof fallback === 'boolean' ? ['1', 'true', 'yes'].includes(value.toLowerCase()) : value;
  }
  const config = plainToInstance(Config, raw);
  const errors = validateSync(config, { forbidUnknownValues: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (config.isProduction) {
    const secrets = (Config as unknown as { [SECRET_DEFAULTS]?: string[] })[SECRET_DEFAULTS] ?? [];
    const unchanged = secrets.filter((key) => (config as unknown as Record<string, unknown>)[key] === (defaults as unknown as Record<string, unknown>)[key]);
    if (unchanged.length > 0) {
      throw new Error(`Refusing to start in production with development defaults for: ${unchanged.join(', ')}. Set them in the environment.`);
    }
  }
  return config;
}
