// class-transformer's @Type reads design-time types through the Reflect metadata API.
import 'reflect-metadata';
export * from './validators';
export * from './accounts.dto';
export * from './agents.dto';
export * from './send.dto';
export * from './webhooks.dto';
export * from './channels.dto';
export * from './documents.dto';
export * from './conversations.dto';
export * from './canned-replies.dto';
export * from './templates.dto';
export * from './contacts.dto';
export * from './billing.dto';
export * from './rich-send.dto';
export * from './campaigns.dto';
export * from './knowledge-gaps.dto';
export * from './agent-tests.dto';
export * from './teams.dto';
