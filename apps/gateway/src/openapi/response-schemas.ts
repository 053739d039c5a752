import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { apiResponseSchemas, type ApiResponseSchemas } from '@parley/contracts';
import { schemaRef, type Schema } from './dto-schema';

/*
 * The answers' shapes (CONTRACT.md §1–§9) are the TypeScript types the routes return: `ApiResponses` in
 * @parley/contracts names each component, and `npm run contracts:generate` checks in their JSON Schema (draft-07). Here
 * that is turned into OpenAPI 3.0, which has no `null` type, no `const` and no tuples.
 */

type JsonSchema = ApiResponseSchemas['definitions'][string];

const isNull = (schema: JsonSchema) => schema.type === 'null';
const componentOf = (ref: string) => ref.replace(/^#\/definitions\//, '');

/**
 * One draft-07 schema as OpenAPI 3.0: `type: [T, "null"]` and `anyOf: [X, {type: "null"}]` become `nullable` (a
 * nullable reference inlines its component: OpenAPI 3.0 cannot mark a `$ref` nullable), `const` a one-value `enum`,
 * a tuple its common item type, `examples` an `example`; references point at the document's components.
 */
export function toOpenApi(schema: JsonSchema, definitions: Record<string, JsonSchema>): Schema {
  const { $schema: _, $ref, type, const: constant, enum: values, anyOf, oneOf, items, additionalItems: _items, properties, additionalProperties, examples, ...keywords } = schema;
  const convert = (child: JsonSchema) => toOpenApi(child, definitions);
  if (typeof $ref === 'string') {
    const ref = schemaRef(componentOf($ref));
    // OpenAPI 3.0 ignores what stands beside a `$ref`: a described reference is an `allOf` of one
    return Object.keys(keywords).length > 0 ? { allOf: [ref], ...keywords } : ref;
  }
  const out: SchemaObject = {};
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  const concrete = types.filter((t) => t !== 'null');
  if (concrete.length === 1) out.type = concrete[0] as SchemaObject['type'];
  if (concrete.length > 1) out.oneOf = concrete.map((t) => ({ type: t as SchemaObject['type'] }));
  if (types.includes('null')) out.nullable = true;
  Object.assign(out, keywords);
  if (constant !== undefined) out.enum = [constant];
  if (values) out.enum = [...values];
  if (Array.isArray(examples) && examples.length > 0) out.example = examples[0];
  if (properties) out.properties = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, convert(property)]));
  if (additionalProperties !== undefined) {
    out.additionalProperties = typeof additionalProperties === 'object' && Object.keys(additionalProperties).length > 0 ? convert(additionalProperties) : additionalProperties !== false;
  }
  if (Array.isArray(items)) out.items = tupleItems(items.map(convert));
  else if (items) out.items = convert(items);
  if (oneOf) out.oneOf = (oneOf as JsonSchema[]).map(convert);
  if (anyOf) {
    const alternatives = anyOf.filter((alternative) => !isNull(alternative));
    if (alternatives.length === anyOf.length) out.anyOf = alternatives.map(convert);
    else {
      const [only] = alternatives;
      const body = alternatives.length === 1 ? (convert(typeof only.$ref === 'string' ? { ...definitions[componentOf(only.$ref)], ...withoutRef(only) } : only) as SchemaObject) : undefined;
      // `nullable` needs a `type` beside it (OpenAPI 3.0.3): a union of several types and null has no form
      if (!body?.type) throw new Error(`no OpenAPI 3.0 form of a nullable ${JSON.stringify(schema)}`);
      // the property's own description wins over its type's
      return { ...body, ...out, nullable: true };
    }
  }
  return out;
}

function withoutRef(schema: JsonSchema): JsonSchema {
  const { $ref: _, ...rest } = schema;
  return rest;
}

/** `[string, string]` (a pair of times): OpenAPI 3.0 has no tuples, so the items' one type (the length is in min/maxItems). */
function tupleItems(items: Schema[]): Schema {
  const [first] = items;
  if (items.every((item) => JSON.stringify(item) === JSON.stringify(first))) return first;
  return { anyOf: items };
}

/** The answers' components, from the checked-in schemas of `ApiResponses`. */
export function answerSchemas(schemas: ApiResponseSchemas = apiResponseSchemas()): Record<string, SchemaObject> {
  return Object.fromEntries(Object.entries(schemas.definitions).map(([name, schema]) => [name, toOpenApi(schema, schemas.definitions) as SchemaObject]));
}

/** Documents the gateway describes itself: a request body (the token route's two media types) and service-kit's health answers. */
const GATEWAY_SCHEMAS: Record<string, SchemaObject> = {
  TokenRequest: {
    type: 'object',
    description: 'Client credentials in the body, or omitted from it and sent as HTTP Basic client authentication.',
    properties: { grant_type: { type: 'string', enum: ['client_credentials'] }, client_id: { type: 'string' }, client_secret: { type: 'string' }, scope: { type: 'string' } },
    required: ['grant_type'],
  },
  Health: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
  Readiness: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['ready', 'not_ready'] }, checks: { type: 'object', additionalProperties: true } },
    required: ['status', 'checks'],
  },
};

/** Every response schema (and the token request), by component name. */
export const RESPONSE_SCHEMAS: Record<string, SchemaObject> = { ...answerSchemas(), ...GATEWAY_SCHEMAS };
