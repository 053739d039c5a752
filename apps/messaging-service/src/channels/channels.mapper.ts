import type { ChannelView } from '@parley/contracts';
import type { ChannelEntity } from './channel.entity';

/** The public channel record: credentials never leave the entity. */
export function toChannelRecord(entity: ChannelEntity): ChannelView {
  return {
    id: entity.id,
    channel: entity.kind,
    provider: entity.provider,
    phone_number: entity.phoneNumber,
    ...(entity.kind === 'email' ? { address: entity.phoneNumber } : {}),
    phone_number_id: entity.phoneNumberId,
    waba_id: entity.wabaId,
    status: entity.status,
    agent: entity.agent,
    is_default: entity.isDefault,
    send_limit_per_second: entity.sendLimitPerSecond,
    created_at: entity.createdAt.toISOString(),
  };
}
