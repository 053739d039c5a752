import Ajv, { type ValidateFunction } from 'ajv';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The checked-in event contracts of libs/contracts (`schemas/<topic>/v<N>.json`, `examples/<topic>/v<N>/*.json`),
 * for producer tests (validate what a service emitted) and consumer tests (replay recorded examples).
 */
const CONTRACTS_DIR = join(__dirname, '../../contracts');

const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
const validators = new Map<string, ValidateFunction>();

/** Recorded schema versions of a topic's events, oldest first. */
export function eventSchemaVersions(topic: string): number[] {
  const dir = join(CONTRACTS_DIR, 'schemas', topic);
  if (!existsSync(dir)) throw new Error(`no recorded event schema for topic "${topic}" (libs/contracts/schemas)`);
  return readdirSync(dir)
    .map((file) => /^v(\d+)\.json$/.exec(file)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

function validatorOf(topic: string, version: number): ValidateFunction {
  const id = `${topic}@${version}`;
  let validate = validators.get(id);
  if (!validate) {
    validate = ajv.compile(JSON.parse(readFileSync(join(CONTRACTS_DIR, 'schemas', topic, `v${version}.json`), 'utf8')) as object);
    validators.set(id, validate);
  }
  return validate;
}

/**
 * Throws (failing the test) unless `envelope` is valid under the recorded schema of its topic, at the version the
 * envelope names. Producer tests call it on what a service actually published.
 */
export function expectMatchesEventSchema(topic: string, envelope: unknown): void {
  const version = (envelope as { version?: unknown } | null)?.version;
  const versions = eventSchemaVersions(topic);
  if (typeof version !== 'number' || !versions.includes(version)) {
    throw new Error(`${topic} event has version ${JSON.stringify(version)}; recorded versions: ${versions.join(', ')}`);
  }
  const validate = validatorOf(topic, version);
  if (!validate(envelope)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(envelope)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    throw new Error(`${topic} v${version} event does not match its schema:\n  ${problems.join('\n  ')}\n${JSON.stringify(envelope, null, 2)}`);
  }
}

export interface RecordedEventExample<T = unknown> {
  topic: string;
  version: number;
  name: string;
  envelope: T;
}

/**
 * The recorded example envelopes of the current and the previous schema version of a topic: what a consumer must
 * still handle while the topic may hold messages of both.
 */
export function recordedEventExamples<T = unknown>(topic: string): RecordedEventExample<T>[] {
  return eventSchemaVersions(topic)
    .slice(-2)
    .flatMap((version) => {
      const dir = join(CONTRACTS_DIR, 'examples', topic, `v${version}`);
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((file) => file.endsWith('.json'))
        .sort()
        .map((file) => ({ topic, version, name: file.replace(/\.json$/, ''), envelope: JSON.parse(readFileSync(join(dir, file), 'utf8')) as T }));
    });
}
