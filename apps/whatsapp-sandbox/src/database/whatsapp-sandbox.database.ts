import type { ServiceDatabase } from '@parley/service-kit';
import { MediaEntity } from '../media/media.entity';
import { MessageEntity } from '../messages/message.entity';
import { PhoneNumberEntity } from '../numbers/phone-number.entity';
import { CreateSandbox1764028800000 } from './migrations/1764028800000-CreateSandbox';
import { CreateNotificationOutbox1764115200000 } from './migrations/1764115200000-CreateNotificationOutbox';
import { NotificationGiveUpAt1764374400000 } from './migrations/1764374400000-NotificationGiveUpAt';
import { CreateTemplates1764547200000 } from './migrations/1764547200000-CreateTemplates';
import { CreateMedia1764806400000 } from './migrations/1764806400000-CreateMedia';
import { CreateSmsAndEmail1764892800000 } from './migrations/1764892800000-CreateSmsAndEmail';
import { CreateStripeCheckout1765238400000 } from './migrations/1765238400000-CreateStripeCheckout';
import { CreateVoiceCalls1765324800000 } from './migrations/1765324800000-CreateVoiceCalls';

export const whatsappSandboxDatabase: ServiceDatabase = {
  schema: 'sandbox',
  entities: [PhoneNumberEntity, MessageEntity, MediaEntity],
  migrations: [CreateSandbox1764028800000, CreateNotificationOutbox1764115200000, NotificationGiveUpAt1764374400000, CreateTemplates1764547200000, CreateMedia1764806400000, CreateSmsAndEmail1764892800000, CreateStripeCheckout1765238400000, CreateVoiceCalls1765324800000],
};
