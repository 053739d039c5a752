export * from './envelope';
export * from './messages';
export * from './agents';
