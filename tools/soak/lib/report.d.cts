// Types of report.cjs for TypeScript callers.
import type { Counts, Judgement, LagVerdict, LogScan, Rates, Sample } from './analysis.cjs';

export interface SoakResult {
  startedAt: string;
  run?: string;
  rates: Rates;
  loadSeconds: number;
  drainSeconds: number;
  sampleSeconds: number;
  agentChangeSeconds: number;
  warmupShare: number;
  tenants: number;
  machine: string;
  services: string[];
  groups: string[];
  samples: Sample[];
  counts: Counts;
  failures?: string[];
  logScan: LogScan;
  judgement: Judgement;
}

export declare function textTable(headers: string[], rows: unknown[][]): string;
export declare function markdownTable(headers: string[], rows: unknown[][]): string;
export declare function pickSamples(samples: Sample[], columns: number): Sample[];
export declare function lagOverTime(samples: Sample[], lag: LagVerdict[], columns?: number): { headers: string[]; rows: unknown[][] };
export declare function verdictLines(judgement: Judgement, counts?: Counts): string[];
export declare function renderText(result: SoakResult): string;
export declare function renderMarkdown(result: SoakResult): string;
export declare function renderCharts(result: SoakResult): { memory: string; lag: string };
