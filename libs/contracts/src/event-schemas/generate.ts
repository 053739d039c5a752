import { join } from 'node:path';
import { createGenerator } from 'ts-json-schema-generator';
import type { JsonSchema } from './json-schema';

/** The TypeScript source of the event schemas: an interface whose properties are the topics (events/catalog.ts). */
export const EVENT_TYPES_SOURCE = 'libs/contracts/src/events/catalog.ts';
export const EVENT_TYPES_NAME = 'EventsByTopic';

export interface GeneratedEventSchema {
  topic: string;
  /** The envelope's `version` (the wire version consumers dispatch on). */
  version: number;
  schema: JsonSchema;
}

/**
 * Generates the JSON Schema of every event from its TypeScript type (draft-07, everything inlined). `source` and
 * `typeName` default to the real catalog; tests point them at fixtures. Takes about two seconds (it runs the
 * TypeScript compiler).
 */
export function generateEventSchemas(workspaceRoot: string, source = EVENT_TYPES_SOURCE, typeName = EVENT_TYPES_NAME): GeneratedEventSchema[] {
  const generator = createGenerator({
    path: join(workspaceRoot, source),
    tsconfig: join(workspaceRoot, 'libs/contracts/tsconfig.json'),
    type: typeName,
    expose: 'none',
    topRef: false,
    jsDoc: 'extended',
    skipTypeCheck: true,
    additionalProperties: false,
  });
  const catalog = generator.createSchema(typeName) as JsonSchema;
  return Object.entries(catalog.properties ?? {}).map(([topic, envelope]) => {
    const version = envelope.properties?.version?.const;
    if (typeof version !== 'number') throw new Error(`the event type of ${topic} has no literal envelope version`);
    return { topic, version, schema: { $schema: 'http://json-schema.org/draft-07/schema#', title: `${topic} v${version}`, ...envelope } };
  });
}
