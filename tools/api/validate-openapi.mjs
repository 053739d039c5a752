#!/usr/bin/env node
// Validates an OpenAPI document read from stdin against the official OpenAPI JSON schemas
// (@seriousme/openapi-schema-validator, ESM-only, hence a script of its own the tests can run).
// Prints {valid, version, errors} as JSON; exits 1 when the document is not valid.
import { Validator } from '@seriousme/openapi-schema-validator';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const validator = new Validator();
const result = await validator.validate(JSON.parse(input));
process.stdout.write(`${JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? [] })}\n`);
process.exit(result.valid ? 0 : 1);
