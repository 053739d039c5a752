export * from './envelope';
export * from './messages';
export * from './agents';
export * from './engagement';
export * from './channels';
export * from './documents';
export * from './catalog';
