// Tooling for the API's answer schemas (generation from api/responses.ts). Not part of the library's runtime entry
// point: tests and tools/contracts/generate-schemas.mjs import it by path.
export * from './generate';
