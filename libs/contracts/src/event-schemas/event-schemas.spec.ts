import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_TOPICS, EVENT_VERSIONS, Topics } from '../index';
import { findBreakingChanges } from './compatibility';
import { generateEventSchemas, type GeneratedEventSchema } from './generate';
import type { JsonSchema } from './json-schema';
import { formatSchema, readRecordedExamples, readRecordedSchema, recordedVersions, schemaPath } from './recorded';

const workspaceRoot = join(__dirname, '../../../..');
const REGENERATE = 'run `npm run contracts:generate` and commit the result';

describe('event contracts', () => {
  let generated: GeneratedEventSchema[];
  beforeAll(() => {
    generated = generateEventSchemas(workspaceRoot);
  }, 60_000);

  it('has a generated schema and recorded examples for every event topic', () => {
    expect(generated.map((g) => g.topic).sort()).toEqual([...EVENT_TOPICS].sort());
    expect([...EVENT_TOPICS].sort()).toEqual(Object.values(Topics).sort());
    for (const { topic, version } of generated) {
      expect(recordedVersions(topic)).toContain(version);
      expect(readRecordedExamples(topic, version).length).toBeGreaterThan(0);
    }
  });

  it('checks in exactly the schemas the current types generate (drift fails)', () => {
    for (const { topic, version, schema } of generated) {
      const recorded = readFileSync(schemaPath(topic, version), 'utf8');
      // on failure the diff names the topic and the fix
      expect({ topic, fix: REGENERATE, schema: recorded }).toEqual({ topic, fix: REGENERATE, schema: formatSchema(schema) });
    }
  });

  it('changes no recorded event version in a way that breaks a consumer', () => {
    for (const { topic, version, schema } of generated) {
      const changes = findBreakingChanges(readRecordedSchema(topic, version), schema);
      expect({ topic, version, changes }).toEqual({ topic, version, changes: [] });
    }
  });

  it('validates every recorded example of every version against its version, and the current version against the types', () => {
    const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
    for (const { topic, version: current, schema } of generated) {
      const validateCurrent = ajv.compile(schema);
      for (const version of recordedVersions(topic)) {
        const validateRecorded = ajv.compile(readRecordedSchema(topic, version));
        for (const example of readRecordedExamples(topic, version)) {
          const label = `${topic}/v${version}/${example.name}`;
          expect({ label, valid: validateRecorded(example.envelope), errors: validateRecorded.errors ?? null }).toEqual({ label, valid: true, errors: null });
          if (version === current) expect({ label, valid: validateCurrent(example.envelope), errors: validateCurrent.errors ?? null }).toEqual({ label, valid: true, errors: null });
          expect(example.envelope).toMatchObject({ type: topic, version });
        }
      }
    }
  });

  describe('the compatibility check', () => {
    const status = () => JSON.parse(readFileSync(schemaPath(Topics.MessageStatus, EVENT_VERSIONS[Topics.MessageStatus]), 'utf8')) as JsonSchema;
    const data = (schema: JsonSchema) => schema.properties!.data;

    it('fails on a breaking edit of the TypeScript type', () => {
      const [broken] = generateEventSchemas(workspaceRoot, 'libs/contracts/src/event-schemas/__fixtures__/breaking-change.ts', 'BrokenEventsByTopic');
      const changes = findBreakingChanges(readRecordedSchema(Topics.MessageStatus, EVENT_VERSIONS[Topics.MessageStatus]), broken.schema);
      expect(changes).toEqual(
        expect.arrayContaining([
          { path: 'data.to', change: 'required property removed or renamed' },
          { path: 'data.error', change: 'newly required: messages of the previous schema lack it' },
          { path: 'data.status', change: 'values removed: "failed"' },
          { path: 'data.recipient', change: 'new required property: messages of the previous schema lack it' },
        ]),
      );
      expect(changes).toHaveLength(4);
    }, 60_000);

    it('accepts a new optional property and nothing else', () => {
      const next = status();
      data(next).properties!.provider_message_id = { type: 'string' };
      expect(findBreakingChanges(status(), next)).toEqual([]);
      expect(findBreakingChanges(status(), status())).toEqual([]);
    });

    it.each<[string, (s: JsonSchema) => void, string]>([
      ['an optional property removed', (s) => delete data(s).properties!.error, 'data.error: optional property removed or renamed'],
      ['a required property made optional', (s) => (data(s).required = data(s).required!.filter((r) => r !== 'at')), 'data.at: no longer required'],
      ['a type narrowed', (s) => (s.properties!.tenant_id.type = 'string'), 'tenant_id: type narrowed: no longer accepts null'],
      ['a type widened', (s) => (data(s).properties!.to.type = ['string', 'null']), 'data.to: type widened: now also null'],
      ['an enum widened', (s) => data(s).properties!.status.enum!.push('deleted'), 'data.status: values added: "deleted"'],
      ['a constant changed', (s) => (s.properties!.version.const = EVENT_VERSIONS[Topics.MessageStatus] + 1), `version: values removed: ${EVENT_VERSIONS[Topics.MessageStatus]}`],
      ['a constraint added', (s) => (data(s).properties!.at.format = 'date-time'), 'data.at: format changed from none to "date-time"'],
    ])('fails on %s', (_label, edit, expected) => {
      const next = status();
      edit(next);
      const changes = findBreakingChanges(status(), next).map((c) => `${c.path}: ${c.change}`);
      expect(changes.some((c) => c.startsWith(expected))).toBe(true);
    });

    it('follows unions: a member removed or added breaks, a member gaining an optional property does not', () => {
      const outbound = () => readRecordedSchema(Topics.MessageOutbound, 1);
      const content = (s: JsonSchema) => data(s).properties!.content;
      const removed = outbound();
      content(removed).anyOf!.pop();
      expect(findBreakingChanges(outbound(), removed)).toEqual([{ path: 'data.content', change: expect.stringContaining('union member removed') }]);
      const added = outbound();
      content(added).anyOf!.push({ type: 'object', properties: { type: { const: 'image' } }, required: ['type'] });
      expect(findBreakingChanges(outbound(), added)).toEqual([{ path: 'data.content', change: expect.stringContaining('union member added') }]);
      const extended = outbound();
      content(extended).anyOf![0].properties!.preview_url = { type: 'boolean' };
      expect(findBreakingChanges(outbound(), extended)).toEqual([]);
    });
  });
});
