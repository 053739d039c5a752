/**
 * WhatsApp Cloud API wire shapes (the parts this service reads or writes). Shared by Meta, 360dialog (a pass-through)
 * and the local sandbox. Everything from the provider is untrusted: fields are optional and checked where read.
 */

/** `POST /{version}/{phone_number_id}/messages` body. */
export type CloudApiSendBody = {
  messaging_product: 'whatsapp';
  recipient_type: 'individual';
  to: string;
  /** Echoed in every status notification of the message. */
  biz_opaque_callback_data?: string;
} & (
  | { type: 'text'; text: { body: string } }
  | { type: 'template'; template: { name: string; language: { code: string; policy?: string }; components?: unknown[] } }
  /** Media, location and interactive messages: `{type, [type]: {...}}` (see cloud-api.rich.ts). */
  | Record<string, unknown>
);

/** 200 answer of a send. */
export interface CloudApiSendResponse {
  messaging_product?: string;
  contacts?: { input?: string; wa_id?: string }[];
  messages?: { id?: string }[];
}

/** Error answer: `{error: {...}}`. */
export interface CloudApiErrorBody {
  error?: {
    message?: string;
    type?: string;
    code?: number;
    error_subcode?: number;
    error_data?: { messaging_product?: string; details?: string };
    fbtrace_id?: string;
  };
}

/** A webhook notification (`object: "whatsapp_business_account"`). */
export interface CloudApiNotification {
  object?: string;
  entry?: { id?: string; changes?: { field?: string; value?: CloudApiChangeValue }[] }[];
}

export interface CloudApiChangeValue {
  messaging_product?: string;
  metadata?: { display_phone_number?: string; phone_number_id?: string };
  contacts?: CloudApiContact[];
  messages?: CloudApiInboundMessage[];
  statuses?: CloudApiStatus[];
}

export interface CloudApiContact {
  profile?: { name?: string };
  wa_id?: string;
  /** Business-scoped user id (BSUID), for users who may have no visible number. */
  user_id?: string;
}

export interface CloudApiInboundMessage {
  from?: string;
  from_user_id?: string;
  id?: string;
  timestamp?: string;
  type?: string;
  text?: { body?: string };
  image?: CloudApiMedia;
  video?: CloudApiMedia;
  audio?: CloudApiMedia & { voice?: boolean };
  document?: CloudApiMedia & { filename?: string };
  sticker?: CloudApiMedia & { animated?: boolean };
  location?: { latitude?: number; longitude?: number; name?: string; address?: string };
  contacts?: { name?: { formatted_name?: string; first_name?: string }; phones?: { phone?: string }[] }[];
  interactive?: {
    type?: string;
    button_reply?: { id?: string; title?: string };
    list_reply?: { id?: string; title?: string; description?: string };
    nfm_reply?: { name?: string; body?: string; response_json?: string };
  };
  button?: { payload?: string; text?: string };
  reaction?: { message_id?: string; emoji?: string };
  context?: { from?: string; id?: string };
}

export interface CloudApiMedia {
  id?: string;
  mime_type?: string;
  caption?: string;
}

export interface CloudApiStatus {
  id?: string;
  status?: string;
  timestamp?: string;
  recipient_id?: string;
  /** What the send set in `biz_opaque_callback_data` (our message id). */
  biz_opaque_callback_data?: string;
  errors?: { code?: number; title?: string; message?: string; error_data?: { details?: string } }[];
}
