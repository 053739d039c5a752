import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiResponseSchemas } from '../api/response-schemas';
import type { JsonSchema } from '../event-schemas/json-schema';
import { API_RESPONSES_SCHEMA_FILE, formatApiResponseSchemas, generateApiResponseSchemas } from './generate';

const workspaceRoot = join(__dirname, '../../../..');
const REGENERATE = 'run `npm run contracts:generate` and commit the result';

/** Every `$ref` of a schema. */
function refs(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(refs);
  if (!schema || typeof schema !== 'object') return [];
  return Object.entries(schema).flatMap(([key, value]) => (key === '$ref' ? [value as string] : refs(value)));
}

describe('API answer schemas (ApiResponses → api/responses.schema.json)', () => {
  let generated: ApiResponseSchemas;
  beforeAll(() => {
    generated = generateApiResponseSchemas(workspaceRoot);
  }, 60_000);

  it('checks in exactly the schemas the current types generate (drift fails)', () => {
    const recorded = readFileSync(join(workspaceRoot, API_RESPONSES_SCHEMA_FILE), 'utf8');
    expect({ fix: REGENERATE, schemas: recorded }).toEqual({ fix: REGENERATE, schemas: formatApiResponseSchemas(generated) });
  });

  it('is plain draft-07: every tag turned into keywords, every reference to a component', () => {
    // strict: an unknown keyword (a tag left over) fails to compile
    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'answers', definitions: generated.definitions });
    for (const name of Object.keys(generated.definitions)) expect(() => ajv.getSchema(`answers#/definitions/${name}`)).not.toThrow();
    const components = new Set(Object.keys(generated.definitions).map((name) => `#/definitions/${name}`));
    expect(refs(generated.definitions).filter((ref) => !components.has(ref))).toEqual([]);
  });

  describe('the tags', () => {
    let fixture: Record<string, JsonSchema>;
    const props = (name: string) => fixture[name].properties!;
    beforeAll(() => {
      fixture = generateApiResponseSchemas(workspaceRoot, 'libs/contracts/src/api-schemas/__fixtures__/api-responses.ts', 'FixtureResponses').definitions;
    }, 60_000);

    it('@idPrefix: a pattern and an example, on nullable strings and on a string array’s items', () => {
      expect(props('Widget').id).toEqual({ type: 'string', pattern: '^wdg_', examples: ['wdg_01JD3S4ZC5Q2X8V6N7M9P0R1T2'] });
      expect(props('Widget').owner).toEqual(expect.objectContaining({ type: ['string', 'null'], pattern: '^usr_' }));
      expect(props('Widget').watchers).toEqual({ type: 'array', items: expect.objectContaining({ type: 'string', pattern: '^usr_' }) });
    });

    it('@apiType, @apiFormat and @apiSchema add keywords; @apiDescription replaces the description', () => {
      expect(props('Widget').count).toEqual({ type: 'integer', description: 'How many.' });
      expect(props('Widget').limit).toEqual({ type: ['integer', 'null'] });
      expect(props('Widget').price).toEqual({ type: 'string', pattern: '^\\d+\\.\\d{6}$', examples: ['12.500000'] });
      expect(props('Widget').link).toEqual({ type: ['string', 'null'], format: 'uri' });
      expect(props('Widget').stars).toEqual({ type: 'number', minimum: 1, maximum: 5 });
      expect(props('Widget').note).toEqual({ type: 'string', description: 'Said to the API.' });
      expect(props('Gadget').timezone).toEqual({ type: 'string', examples: ['Europe/Madrid'] });
    });

    it('reads a string property named `at` or `…_at` as a time, and a union of string literals as one enum', () => {
      expect(props('Widget').created_at).toEqual({ type: 'string', format: 'date-time' });
      expect(props('Widget').at).toEqual({ type: ['string', 'null'], format: 'date-time' });
      expect(props('Widget').colour).toEqual({ type: 'string', enum: ['red', 'green', 'dark', 'light'] });
    });

    it('refers to a component wherever its type appears, and inlines every other type', () => {
      expect(fixture.WidgetPage.properties!.data).toEqual({ type: 'array', items: { $ref: '#/definitions/Widget' } });
      expect(props('Gadget').widget).toEqual({ $ref: '#/definitions/Widget' });
      expect(props('Gadget').spare).toEqual({ anyOf: [{ $ref: '#/definitions/Widget' }, { type: 'null' }] });
      expect(fixture.Widget.description).toBe('A widget.');
      expect(fixture.Totals).toEqual({ type: 'object', properties: { data: { type: 'array', items: { type: 'number' } } }, required: ['data'] });
    });
  });
});
