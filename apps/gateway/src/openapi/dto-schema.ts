import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { WEEKDAYS } from '@parley/contracts';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

// class-transformer keeps the targets of `@Type(() => Dto)` in this storage, which it does not export publicly.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any DTO class
export type DtoClass = new (...args: any[]) => object;

export type Schema = SchemaObject | ReferenceObject;

export const schemaRef = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

const HHMM = '^([01]\\d|2[0-3]):[0-5]\\d$|^24:00$';
const E164 = '^\\+[1-9]\\d{6,14}$';

/** `{"mon": [["09:00","17:00"]], …}` (the `IsOpeningHours` rule of the agents DTO). */
const OPENING_HOURS: SchemaObject = {
  type: 'object',
  description: 'Opening ranges per weekday; a missing day is closed. Ranges are ordered, non-overlapping 24-hour `HH:MM` pairs.',
  properties: Object.fromEntries(
    WEEKDAYS.map((day) => [
      day,
      { type: 'array', maxItems: 12, items: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'string', pattern: HHMM } } },
    ]),
  ),
  additionalProperties: false,
};

/**
 * What each class-validator rule says about the value, as JSON Schema. The project's own rules (contracts
 * `validators.ts`) are listed by their registered names; a rule missing here only loses precision, never a field.
 */
const RULES: Record<string, (constraints: unknown[]) => SchemaObject> = {
  isString: () => ({ type: 'string' }),
  isBoolean: () => ({ type: 'boolean' }),
  isInt: () => ({ type: 'integer' }),
  isNumber: () => ({ type: 'number' }),
  isArray: () => ({ type: 'array' }),
  isObject: () => ({ type: 'object' }),
  isLength: ([min, max]) => ({ minLength: min as number, ...(max === undefined ? {} : { maxLength: max as number }) }),
  matches: ([pattern]) => ({ pattern: pattern instanceof RegExp ? pattern.source : String(pattern) }),
  isIn: ([values]) => {
    const allowed = values as unknown[];
    return { type: allowed.every((v) => typeof v === 'boolean') ? 'boolean' : 'string', enum: [...allowed] };
  },
  min: ([min]) => ({ minimum: min as number }),
  max: ([max]) => ({ maximum: max as number }),
  arrayUnique: () => ({ uniqueItems: true }),
  arrayMaxSize: ([max]) => ({ maxItems: max as number }),
  arrayMinSize: ([min]) => ({ minItems: min as number }),
  isEmail: () => ({ type: 'string', format: 'email' }),
  isUrl: () => ({ type: 'string', format: 'uri' }),
  isIso8601: () => ({ type: 'string', format: 'date-time' }),
  isRFC3339: () => ({ type: 'string', format: 'date-time' }),
  isE164: () => ({ type: 'string', pattern: E164, description: 'E.164 phone number with a leading + (checked against real numbering plans).' }),
  isRecipient: () => ({ type: 'string', description: 'E.164 phone number with a leading +, or a WhatsApp business-scoped user id (e.g. US.13491208655302741918).' }),
  isIanaTimeZone: () => ({ type: 'string', maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin.' }),
  isOpeningHours: () => OPENING_HOURS,
  isContactAttributes: () => ({
    type: 'object',
    maxProperties: 50,
    additionalProperties: { oneOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }] },
    description: 'Up to 50 keys (letters, digits, _ . -; up to 64) of strings, numbers and booleans.',
  }),
};

/** Rules that only make sense for the items of an array when declared with `{ each: true }`. */
const ARRAY_RULES = new Set(['isArray', 'arrayUnique', 'arrayMaxSize', 'arrayMinSize']);

/**
 * JSON Schemas of a class-validator DTO and the DTOs nested in it, read from the decorators' metadata, so the
 * document says exactly what the validation pipe enforces. Unknown fields are refused (`additionalProperties: false`).
 */
export function dtoSchemas(dto: DtoClass, into: Record<string, SchemaObject> = {}): Record<string, SchemaObject> {
  if (into[dto.name]) return into;
  into[dto.name] = {}; // placeholder first: nested DTOs may refer back
  const storage = getMetadataStorage();
  const byProperty = storage.groupByPropertyName(storage.getTargetValidationMetadatas(dto, '', true, false));
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [property, rules] of Object.entries(byProperty)) {
    properties[property] = propertySchema(dto, property, rules, into);
    if (!rules.some((rule) => rule.type === 'conditionalValidation')) required.push(property);
  }
  into[dto.name] = { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
  return into;
}

/** The query parameters a list DTO declares, as OpenAPI parameter schemas. */
export function dtoProperties(dto: DtoClass): { name: string; required: boolean; schema: Schema }[] {
  const schema = dtoSchemas(dto)[dto.name];
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({ name, required: schema.required?.includes(name) ?? false, schema: property }));
}

function propertySchema(dto: DtoClass, property: string, rules: ValidationMetadata[], into: Record<string, SchemaObject>): Schema {
  const own: SchemaObject = {};
  const items: SchemaObject = {};
  let nested: Schema | undefined;
  for (const rule of rules) {
    if (rule.type === 'nestedValidation') {
      const target = defaultMetadataStorage.findTypeMetadata(dto, property)?.typeFunction() as DtoClass | undefined;
      if (target) nested = schemaRef(dtoSchemas(target, into) && target.name);
      continue;
    }
    const name = ruleName(rule);
    const describe = name ? RULES[name] : undefined;
    if (!describe) continue;
    const fragment = describe(rule.constraints ?? []);
    Object.assign(rule.each && !ARRAY_RULES.has(name!) ? items : own, fragment);
  }
  if (own.type === 'array' || Object.keys(items).length > 0) {
    return { ...own, type: 'array', items: nested ?? items };
  }
  if (nested) return own.description ? { allOf: [nested], description: own.description } : nested;
  if (own.type === undefined && own.pattern) own.type = 'string';
  if (acceptsNull(rules, property)) own.nullable = true;
  return own;
}

/** A `@ValidateIf((_o, v) => v !== null)` skips the rules for `null`: the field may be set to null (e.g. to clear it). */
function acceptsNull(rules: ValidationMetadata[], property: string): boolean {
  return rules.some((rule) => {
    if (rule.type !== 'conditionalValidation' || rule.name === 'isOptional') return false;
    const condition = rule.constraints?.[0] as ((object: object, value: unknown) => boolean) | undefined;
    return typeof condition === 'function' && !condition({ [property]: null }, null) && condition({ [property]: 'x' }, 'x');
  });
}

function ruleName(rule: ValidationMetadata): string | undefined {
  if (rule.name) return rule.name;
  return getMetadataStorage().getTargetValidatorConstraints(rule.constraintCls)[0]?.name;
}
