import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonSchema } from './json-schema';

/**
 * The checked-in event contracts: `schemas/<topic>/v<N>.json` (one schema per envelope version) and
 * `examples/<topic>/v<N>/*.json` (recorded envelopes of that version, never deleted while a topic may hold them).
 */
export const CONTRACTS_ROOT = join(__dirname, '../..');

export function schemaPath(topic: string, version: number, root = CONTRACTS_ROOT): string {
  return join(root, 'schemas', topic, `v${version}.json`);
}

/** Versions with a recorded schema, oldest first. */
export function recordedVersions(topic: string, root = CONTRACTS_ROOT): number[] {
  const dir = join(root, 'schemas', topic);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((file) => /^v(\d+)\.json$/.exec(file)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

export function readRecordedSchema(topic: string, version: number, root = CONTRACTS_ROOT): JsonSchema {
  return JSON.parse(readFileSync(schemaPath(topic, version, root), 'utf8')) as JsonSchema;
}

export interface RecordedExample {
  topic: string;
  version: number;
  name: string;
  envelope: Record<string, unknown>;
}

export function readRecordedExamples(topic: string, version: number, root = CONTRACTS_ROOT): RecordedExample[] {
  const dir = join(root, 'examples', topic, `v${version}`);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ topic, version, name: file.replace(/\.json$/, ''), envelope: JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown> }));
}

/** The stored form of a schema: a regeneration differs from it only when a type did. */
export function formatSchema(schema: JsonSchema): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
