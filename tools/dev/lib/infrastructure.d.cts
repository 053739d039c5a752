// Types of infrastructure.cjs for TypeScript callers.
export type Probe = (host: string, port: number) => Promise<string | undefined>;
export interface Broker {
  brokers: string;
  /** The call launched the local broker: the caller stops it again at its end. */
  started: boolean;
}
export interface LocalKafka {
  brokerAddress: string;
  startBroker(): Promise<Broker>;
}
export declare function withHint(message: string, hint: string): Error & { hint: string };
export declare function tcpCheck(host: string, port: number, timeoutMs?: number): Promise<string | undefined>;
export declare function redisPing(url: string, timeoutMs?: number): Promise<string | undefined>;
export declare function checkInfrastructure(
  env: Record<string, string | undefined>,
  options?: { tcp?: Probe; redis?: (url: string) => Promise<string | undefined>; postgresSetting?: string },
): Promise<string>;
export declare function ensureKafka(
  env: Record<string, string | undefined>,
  deps: { kafka: LocalKafka; processEnv?: Record<string, string | undefined>; probe?: Probe },
): Promise<Broker>;
export declare function toolLines(tool: string, err: unknown): string[];
