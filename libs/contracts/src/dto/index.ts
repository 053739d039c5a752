export * from './validators';
export * from './accounts.dto';
export * from './agents.dto';
export * from './send.dto';
export * from './webhooks.dto';
export * from './channels.dto';
