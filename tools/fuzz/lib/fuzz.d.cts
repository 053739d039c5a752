// Types of fuzz.cjs for TypeScript callers (the end-to-end fuzz test).
import type { FuzzCase } from './cases.cjs';

export interface Secret {
  name: string;
  value: string;
}

export interface FuzzTenant {
  tenantId: string;
  clientId: string;
  apiKey: string;
  accessToken: string;
  phoneNumberIds: string[];
  ids: string[];
  secrets: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface Failure {
  case: FuzzCase;
  status: number;
  problem: string;
  body: string;
}

export interface Tally {
  total: number;
  byRoute: Record<string, { cases: number; statuses: Record<string, number> }>;
  statuses: Record<string, number>;
  failures: Failure[];
}

export declare const PROBLEMS: string;
export declare function createTenant(baseUrl: string, adminToken: string, name: string): Promise<FuzzTenant>;
export declare function credentialsOf(tenants: FuzzTenant[], adminToken: string): string[];
export declare function violation(c: FuzzCase, res: Answer, forbidden?: Secret[]): string | null;
export declare function runCases(
  baseUrl: string,
  batches: Iterable<FuzzCase[]>,
  options?: { concurrency?: number; forbidden?: Secret[]; signal?: AbortSignal; onProgress?: (tally: Tally) => void; onNoAnswer?: () => Promise<unknown> },
): Promise<Tally>;
export declare function distinctFailures(failures: Failure[]): (Failure & { count: number })[];
export declare function shrink(baseUrl: string, failure: Failure, options?: { appSecret?: string; forbidden?: Secret[]; budget?: number }): Promise<{ case: FuzzCase; status: number; body: string }>;
export declare function readiness(urls: Record<string, string>): Promise<Record<string, number | string>>;
export declare function untilReady(url: string, timeoutMs?: number): Promise<boolean>;
export declare function scanLogs(files: string[], secrets: Secret[]): { file: string; secret: string; line: string }[];
export declare function secretsOf(tenants: FuzzTenant[]): Secret[];
export declare function curl(baseUrl: string, c: FuzzCase): string;
export declare function send(baseUrl: string, c: FuzzCase, timeoutMs?: number): Promise<Answer>;
