export * from './topics';
export * from './ids';
export * from './problem';
export * from './events';
export * from './dto';
export * from './rpc/rpc';
