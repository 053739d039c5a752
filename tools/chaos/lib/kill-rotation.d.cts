// Types of kill-rotation.cjs for TypeScript callers (the end-to-end chaos test).
import type { AppName } from '../../dev/lib/stack.cjs';

export interface KillRotationOptions {
  /** Inbound customer messages, one customer each (default 5000). */
  messages: number;
  /** Messages per second offered, open loop (default 100). */
  rate: number;
  /** Tenants the messages are spread over, each with its own channel, agent and receiver (default 50). */
  tenants: number;
  /** Share of webhook requests each receiver fails: 500, time-out or reset (default 0.3). */
  failureRate: number;
  /** Services to SIGKILL, in this order (default all six); false: none. */
  kill: readonly AppName[] | boolean;
  /** Kill the next service only once the previous is ready again (default true). */
  oneAtATime: boolean;
  /** After every message is answered and announced, how long nothing may change before judging (default 20 s). */
  settleMs: number;
  /** How long after the last message to wait for quiet at most (default 300 s). */
  drainTimeoutMs: number;
  /** Names the logs' folder (tmp/logs/chaos/<label>), the database and the Kafka namespace. */
  label: string;
  /** The services' settings beyond the scenario's own quick webhook retries (default none). */
  serviceEnv: Record<string, string>;
}

export interface ScenarioResult {
  figures: Record<string, number | string>;
  failures: string[];
}

export declare const DEFAULTS: Readonly<KillRotationOptions>;
export declare const FAQ: { question: string; answer: string };
export declare function runKillRotation(options?: Partial<KillRotationOptions>, io?: { log?: (message: string) => void; signal?: AbortSignal }): Promise<ScenarioResult>;
