import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { BusinessNumber } from '../cloud-api/notifications';
import type { PhoneNumberEntity } from './phone-number.entity';

/** A sandbox number as `/_sandbox/numbers` answers it. */
export interface SandboxNumberRecord {
  phone_number: string;
  phone_number_id: string;
  display_phone_number: string;
  waba_id: string;
  verified_name: string;
  registered: boolean;
  created_at: string;
}

/** How WhatsApp shows a number (`+1 201 555 0100`). */
export function displayPhoneNumber(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

export function toNumberRecord(entity: PhoneNumberEntity): SandboxNumberRecord {
  return {
    phone_number: entity.phoneNumber,
    phone_number_id: entity.phoneNumberId,
    display_phone_number: displayPhoneNumber(entity.phoneNumber),
    waba_id: entity.wabaId,
    verified_name: entity.verifiedName,
    registered: entity.registeredAt !== null,
    created_at: entity.createdAt.toISOString(),
  };
}

export function toBusinessNumber(entity: PhoneNumberEntity): BusinessNumber {
  return { phoneNumberId: entity.phoneNumberId, phoneNumber: entity.phoneNumber, wabaId: entity.wabaId };
}
