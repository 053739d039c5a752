// Types of stack.cjs for TypeScript callers (the end-to-end tests).
export type AppName = 'gateway' | 'agent-service' | 'messaging-service' | 'responder-service' | 'webhook-service' | 'crm-service' | 'campaign-service' | 'billing-service' | 'whatsapp-sandbox';
export type Env = Record<string, string | undefined>;
/** The services' ports, and optionally the SMTP ports (messaging-service's listener, the sandbox's sink). */
export type PortMap = Record<AppName, number> & Partial<Record<'messaging-smtp' | 'sandbox-smtp', number>>;

export declare const ROOT: string;
export declare const APPS: readonly AppName[];
export declare const DEFAULT_PORTS: Readonly<PortMap>;
/** V8 flags of every service process (also set by docker/*.Dockerfile). */
export declare const SERVICE_NODE_FLAGS: readonly string[];

export declare function parseEnv(text: string): Record<string, string>;
export declare function readEnvFile(file: string): Record<string, string>;
export declare function loadEnv(root?: string, processEnv?: Env): { env: Env; files: string[] };
export declare function serviceEnv(baseEnv: Env, ports: PortMap, app: AppName): Env;
export declare function freePorts<N extends string = AppName>(names?: readonly N[]): Promise<Record<N, number>>;
export declare function portInUse(port: number, host?: string): Promise<boolean>;
export declare function ensureDatabase(databaseUrl: string): Promise<{ created: boolean; name: string }>;

export interface MigrationResult {
  app: AppName;
  skipped: boolean;
  ok: boolean;
  output: string;
  ms?: number;
}
export declare function runMigrations(env: Env, options?: { apps?: readonly AppName[]; root?: string; timeoutMs?: number }): Promise<MigrationResult[]>;

export interface StackOptions {
  env: Env;
  ports?: Partial<PortMap>;
  apps?: readonly AppName[];
  root?: string;
  logDir?: string;
  restart?: boolean;
  detached?: boolean;
  onLine?: (app: AppName, line: string) => void;
  log?: (message: string) => void;
  /** Extra node flags per service (e.g. --cpu-prof for the benchmarks). */
  nodeArgs?: Partial<Record<AppName, string[]>>;
}

export interface WaitReadyOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  onReady?: (app: AppName, ms: number) => void;
}

export declare class Stack {
  constructor(options: StackOptions);
  readonly apps: AppName[];
  readonly ports: PortMap;
  readonly logDir: string;
  url(app: AppName): string;
  urls(): Partial<Record<AppName, string>>;
  logFile(app: AppName): string;
  start(options?: WaitReadyOptions): Promise<void>;
  waitReady(options?: WaitReadyOptions): Promise<void>;
  stop(options?: { graceMs?: number }): Promise<void>;
  /** The supervisor's record of each launched service (its current child process, if running). */
  readonly services: Map<AppName, { app: AppName; child?: import('node:child_process').ChildProcess; exits: number; lastExit?: string }>;
  /** Starts (or starts again) one service, appending to its log. */
  launch(app: AppName, fresh?: boolean): void;
  /** One readiness probe of `GET /health/ready`. */
  probe(app: AppName): Promise<{ ready: boolean; detail: string }>;
}
