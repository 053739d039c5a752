import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonSchema } from '../event-schemas/json-schema';

/** The JSON Schemas (draft-07) of the API's answers: one definition per component, referring to each other by `$ref`. */
export interface ApiResponseSchemas {
  $schema: string;
  title: string;
  description: string;
  definitions: Record<string, JsonSchema>;
}

/** The file next to this one, generated from `ApiResponses` (responses.ts) by `npm run contracts:generate`. */
export const API_RESPONSE_SCHEMAS_FILE = 'responses.schema.json';

let schemas: ApiResponseSchemas | undefined;

/** The checked-in schemas of the API's answers, read once (the gateway builds its OpenAPI components from them). */
export function apiResponseSchemas(): ApiResponseSchemas {
  schemas ??= JSON.parse(readFileSync(join(__dirname, API_RESPONSE_SCHEMAS_FILE), 'utf8')) as ApiResponseSchemas;
  return schemas;
}
