// Types of cases.cjs for TypeScript callers (the end-to-end fuzz test).
import type { Arbitrary } from 'fast-check';

export interface FuzzCase {
  /** `METHOD /template` of the operation the case targets (the summary's row). */
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** A validly signed provider notification (CONTRACT §7: always answered 200). */
  signed?: boolean;
}

export interface Route {
  method: string;
  template: string;
  params: string[];
  query: { name: string; schema: unknown }[];
  bodySchema?: unknown;
  streaming: boolean;
}

export declare const EDGE_STRINGS: readonly string[];
export declare const MUTATIONS: readonly string[];
export declare function mutate(document: unknown, mutations: unknown[]): unknown;
export declare function routesFromOpenApi(doc: unknown): Route[];
export declare function httpCase(doc: unknown, routes: Route[], options: { credentials: string[]; knownIds?: string[] }): Arbitrary<FuzzCase>;
export declare function webhookCase(options: { appSecret: string; phoneNumberIds: string[] }): Arbitrary<FuzzCase>;
export declare function signCloudApi(rawBody: string, appSecret: string): string;
export declare function caseBatches(options: {
  doc: unknown;
  routes: Route[];
  credentials: string[];
  knownIds: string[];
  appSecret: string;
  phoneNumberIds: string[];
  count: number;
  seed: number;
  webhookShare?: number;
  batchSize?: number;
}): Generator<FuzzCase[]>;
