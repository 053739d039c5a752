import { apiResponseSchemas } from '@parley/contracts';
import { RESPONSE_SCHEMAS, toOpenApi } from './response-schemas';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('the answers’ schemas as OpenAPI 3.0', () => {
  const definitions = { Widget: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], description: 'A widget.' } };

  it.each([
    ['a nullable type', { type: ['string', 'null'], format: 'date-time' }, { type: 'string', format: 'date-time', nullable: true }],
    ['a nullable enum (null stays one of its values)', { type: ['string', 'null'], enum: ['in', 'out', null] }, { type: 'string', enum: ['in', 'out', null], nullable: true }],
    ['a constant', { type: 'boolean', const: true }, { type: 'boolean', enum: [true] }],
    ['several types', { type: ['string', 'number', 'boolean'] }, { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] }],
    ['a tuple', { type: 'array', items: [{ type: 'string' }, { type: 'string' }], minItems: 2, maxItems: 2 }, { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 }],
    ['examples', { type: 'string', pattern: '^ctc_', examples: ['ctc_1'] }, { type: 'string', pattern: '^ctc_', example: 'ctc_1' }],
    ['an open map', { type: 'object', additionalProperties: {} }, { type: 'object', additionalProperties: true }],
    ['a reference', { $ref: '#/definitions/Widget' }, ref('Widget')],
    ['a described reference', { $ref: '#/definitions/Widget', description: 'The one.' }, { allOf: [ref('Widget')], description: 'The one.' }],
    [
      'a nullable reference (its component inlined: OpenAPI 3.0 cannot mark a $ref nullable)',
      { anyOf: [{ $ref: '#/definitions/Widget' }, { type: 'null' }], description: 'The spare.' },
      { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], description: 'The spare.', nullable: true },
    ],
    ['a nullable object', { anyOf: [{ type: 'object', properties: {} }, { type: 'null' }] }, { type: 'object', properties: {}, nullable: true }],
  ])('converts %s', (_label, schema, expected) => {
    expect(toOpenApi(schema, definitions)).toEqual(expected);
  });

  it('refuses a union of several types and null, which OpenAPI 3.0 cannot say', () => {
    expect(() => toOpenApi({ anyOf: [{ type: 'object' }, { type: 'array' }, { type: 'null' }] }, definitions)).toThrow(/no OpenAPI 3.0 form/);
  });

  it('has a component for every answer of ApiResponses, in the dialect of OpenAPI 3.0 only', () => {
    expect(Object.keys(RESPONSE_SCHEMAS)).toEqual(expect.arrayContaining(Object.keys(apiResponseSchemas().definitions)));
    const misfits: string[] = [];
    const walk = (schema: Record<string, unknown>, path: string): void => {
      for (const keyword of ['const', 'examples', '$schema', 'definitions']) if (keyword in schema) misfits.push(`${path}: ${keyword}`);
      if (Array.isArray(schema.type)) misfits.push(`${path}: a type list`);
      if (typeof schema.$ref === 'string' && !schema.$ref.startsWith('#/components/schemas/')) misfits.push(`${path}: ${schema.$ref}`);
      // `nullable` needs a `type` beside it
      if (schema.nullable === true && schema.type === undefined) misfits.push(`${path}: nullable without a type`);
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) walk(property, `${path}.${name}`);
      for (const key of ['items', 'additionalProperties']) if (schema[key] && typeof schema[key] === 'object') walk(schema[key] as Record<string, unknown>, `${path}.${key}`);
      for (const key of ['anyOf', 'oneOf', 'allOf']) ((schema[key] ?? []) as Record<string, unknown>[]).forEach((alternative, i) => walk(alternative, `${path}.${key}[${i}]`));
    };
    for (const [name, schema] of Object.entries(RESPONSE_SCHEMAS)) walk(schema as Record<string, unknown>, name);
    expect(misfits).toEqual([]);
  });
});
