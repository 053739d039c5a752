// Types of soak.cjs for TypeScript callers (the short soak in apps/platform-e2e).
import type { LagOptions, MemoryOptions, Rates } from './analysis.cjs';
import type { SoakResult } from './report.cjs';

export interface SoakOptions {
  durationMs: number;
  rates: Rates;
  sampleMs?: number;
  agentChangeMs?: number;
  drainTimeoutMs?: number;
  tenants?: number;
  numbers?: number;
  outDir?: string;
  warmupShare?: number;
  memory?: MemoryOptions;
  lag?: LagOptions;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

export interface SoakFiles {
  report: string;
  memory: string;
  lag: string;
  samples: string;
}

export declare function runSoak(options: SoakOptions): Promise<{ result: SoakResult; text: string; files: SoakFiles; passed: boolean }>;
export declare function rssOf(pid: number | undefined): number | null;
export declare function timestamp(): string;
