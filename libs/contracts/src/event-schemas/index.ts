// Tooling for the event contracts (generation, compatibility, AsyncAPI). Not part of the library's runtime entry
// point: tests and tools/contracts/generate-schemas.mjs import it by path.
export * from './json-schema';
export * from './compatibility';
export * from './generate';
export * from './recorded';
export * from './asyncapi';
export * from './event-catalogue';
