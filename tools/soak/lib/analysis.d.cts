// Types of analysis.cjs for TypeScript callers (the unit tests and the e2e soak).
export interface Rates {
  send: number;
  inbound: number;
  read: number;
}

export interface Counts {
  sendsOffered: number;
  sendsAccepted: number;
  sendsFailed: number;
  sendsAtSandbox: number;
  sendsDuplicatedAtSandbox: number;
  inboundOffered: number;
  inboundAccepted: number;
  inboundFailed: number;
  inboundReceived: number;
  duplicateEvents: number;
  repliesAtSandbox: number;
  /** Customers with an accepted inbound message; of those, answered by the agent at the sandbox; answered more often than they wrote. */
  customersWrote: number;
  customersAnswered: number;
  customersOverAnswered: number;
  readsOffered: number;
  readsOk: number;
  readsFailed: number;
  readsNotYetStored: number;
  agentChangesOffered: number;
  agentChangesOk: number;
  agentChangesFailed: number;
  badSignatures: number;
  serviceExits: number;
}

export interface Sample {
  /** Seconds since the load started. */
  t: number;
  phase: 'load' | 'drain';
  rss: Record<string, number | null>;
  lag: Record<string, number>;
  counts?: Partial<Counts>;
}

export type Verdict = 'pass' | 'fail' | 'inconclusive';

export interface MemoryVerdict {
  service: string;
  first: number | null;
  start: number | null;
  peak: number | null;
  end: number | null;
  slopeMbPer10Min: number | null;
  verdict: Verdict;
  reasons: string[];
}

export interface LagVerdict {
  group: string;
  maxDuringLoad: number | null;
  meanDuringLoad: number | null;
  last: number | null;
  growth: number;
  verdict: 'pass' | 'fail';
  reasons: string[];
}

export interface DeliveryVerdict {
  name: string;
  verdict: 'pass' | 'fail';
  detail: string;
}

export interface MemoryOptions {
  warmupShare?: number;
  slopeLimitMbPer10Min?: number;
  marginMb?: number;
  minWindowS?: number;
  edgeSamples?: number;
}

export interface LagOptions {
  warmupShare?: number;
  growthLimit?: number;
  tolerance?: number;
}

export interface LogEntry {
  app: string;
  kind: 'error' | 'warn';
  msg: string;
  line: string;
}

export interface LogScan {
  errors: LogEntry[];
  warnings: LogEntry[];
  startup: LogEntry[];
}

export interface Judgement {
  passed: boolean;
  memory: MemoryVerdict[];
  lag: LagVerdict[];
  delivery: DeliveryVerdict[];
  logs: { verdict: 'pass' | 'fail'; errors: number; warnings: number; startup: number };
}

export declare const MEMORY_DEFAULTS: Required<MemoryOptions>;
export declare const LAG_DEFAULTS: Required<LagOptions>;
export declare function parseDuration(text: string): number;
export declare function parseRates(text: string | undefined, defaults?: Rates): Rates;
export declare function linearFit(points: [number, number][]): { slope: number; intercept: number };
export declare function median(values: number[]): number | null;
export declare function steadySamples(samples: Sample[], warmupShare: number): Sample[];
export declare function memoryVerdicts(samples: Sample[], services: string[], options?: MemoryOptions): MemoryVerdict[];
export declare function lagVerdicts(samples: Sample[], groups: string[], options?: LagOptions): LagVerdict[];
export declare function deliveryVerdicts(counts: Counts): DeliveryVerdict[];
export declare function judge(input: { samples: Sample[]; services: string[]; groups: string[]; counts: Counts; logScan: LogScan; memory?: MemoryOptions; lag?: LagOptions }): Judgement;
