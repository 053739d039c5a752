import { createHmac } from 'node:crypto';
import { digitsOf } from './ids';

/** The Cloud API webhook envelope (`object: "whatsapp_business_account"`), as Meta POSTs it. */
export interface CloudNotification {
  object: 'whatsapp_business_account';
  entry: { id: string; changes: { value: CloudChangeValue; field: 'messages' }[] }[];
}

export interface CloudChangeValue {
  messaging_product: 'whatsapp';
  /** The receiving business number: digits only, and its phone number id (how the tenant is found). */
  metadata: { display_phone_number: string; phone_number_id: string };
  contacts?: { profile: { name: string }; wa_id: string }[];
  messages?: CloudInboundText[];
  statuses?: CloudStatus[];
}

export interface CloudInboundText {
  from: string;
  id: string;
  /** Unix seconds, as a string. */
  timestamp: string;
  type: 'text';
  text: { body: string };
}

/** A media message or an interactive reply: its content under its type's name (`image: {id, mime_type, sha256}`). */
export interface CloudInboundRich {
  from: string;
  id: string;
  timestamp: string;
  type: string;
  [content: string]: unknown;
}

export type StatusValue = 'sent' | 'delivered' | 'read';

export interface CloudStatus {
  id: string;
  status: StatusValue;
  timestamp: string;
  recipient_id: string;
  biz_opaque_callback_data?: string;
}

/** The business side of a notification. */
export interface BusinessNumber {
  phoneNumberId: string;
  /** E.164 with its `+`. */
  phoneNumber: string;
  wabaId: string;
}

/** The name every sandbox customer shows in `contacts[].profile`. */
export const SANDBOX_PROFILE_NAME = 'Sandbox Customer';

export function unixSeconds(at: Date): string {
  return String(Math.floor(at.getTime() / 1000));
}

function envelope<V extends object = Omit<CloudChangeValue, 'messaging_product' | 'metadata'>>(business: BusinessNumber, value: V) {
  return {
    object: 'whatsapp_business_account' as const,
    entry: [
      {
        id: business.wabaId,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp' as const,
              metadata: { display_phone_number: digitsOf(business.phoneNumber), phone_number_id: business.phoneNumberId },
              ...value,
            },
            field: 'messages' as const,
          },
        ],
      },
    ],
  };
}

/** A customer's text message reaching the business number (Meta's inbound `messages` notification). */
export function inboundTextNotification(business: BusinessNumber, message: { id: string; from: string; body: string; at: Date }): CloudNotification {
  const waId = digitsOf(message.from);
  return envelope(business, {
    contacts: [{ profile: { name: SANDBOX_PROFILE_NAME }, wa_id: waId }],
    messages: [{ from: waId, id: message.id, timestamp: unixSeconds(message.at), type: 'text', text: { body: message.body } }],
  });
}

/** A customer's non-text message (media or an interactive reply): `content` goes under the type's name. */
export function inboundNotification(business: BusinessNumber, message: { id: string; from: string; type: string; content: Record<string, unknown>; at: Date }) {
  const waId = digitsOf(message.from);
  return envelope(business, {
    contacts: [{ profile: { name: SANDBOX_PROFILE_NAME }, wa_id: waId }],
    messages: [{ from: waId, id: message.id, timestamp: unixSeconds(message.at), type: message.type, [message.type]: message.content } as CloudInboundRich],
  });
}

/** A status change of a message the business sent (Meta's `statuses` notification). */
export function statusNotification(
  business: BusinessNumber,
  status: { messageId: string; status: StatusValue; recipient: string; at: Date; bizOpaqueCallbackData?: string | null },
): CloudNotification {
  return envelope(business, {
    statuses: [
      {
        id: status.messageId,
        status: status.status,
        timestamp: unixSeconds(status.at),
        recipient_id: digitsOf(status.recipient),
        ...(status.bizOpaqueCallbackData ? { biz_opaque_callback_data: status.bizOpaqueCallbackData } : {}),
      },
    ],
  });
}

/** `X-Hub-Signature-256`: `sha256=` and the hex HMAC-SHA256 of the exact body bytes, keyed with the app secret. */
export function hubSignature(rawBody: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}
