import { Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { GraphApiException, GraphErrors } from '../cloud-api/graph-error';
import { newAccessToken } from '../cloud-api/ids';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { displayPhoneNumber } from '../numbers/numbers.mapper';
import { NumbersService } from '../numbers/numbers.service';

/** The code that fails the exchange, so the error path of embedded signup can be exercised (CONTRACT.md §6). */
export const INVALID_SIGNUP_CODE = 'invalid';

export interface CodeExchangeQuery {
  client_id?: unknown;
  client_secret?: unknown;
  code?: unknown;
  redirect_uri?: unknown;
}

export interface GraphPhoneNumber {
  id: string;
  display_phone_number: string;
  verified_name: string;
  quality_rating: 'GREEN';
}

const oauthError = (code: number, message: string, subcode?: number) =>
  new GraphApiException(400, { message, type: 'OAuthException', code, ...(subcode ? { error_subcode: subcode } : {}) });

function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The Graph routes a Tech Provider calls server-side after Meta's embedded signup popup. */
@Injectable()
export class EmbeddedSignupService {
  constructor(
    private readonly config: WhatsappSandboxConfig,
    private readonly numbers: NumbersService,
  ) {}

  /** `GET /{version}/oauth/access_token`: the app's credentials and the popup's code → a business token. */
  exchangeCode(query: CodeExchangeQuery): { access_token: string; token_type: 'bearer' } {
    if (typeof query.client_id !== 'string' || query.client_id === '') throw oauthError(101, 'Missing client_id parameter.');
    if (query.client_id !== this.config.META_APP_ID) throw oauthError(101, 'Error validating application. Invalid application ID.');
    if (typeof query.client_secret !== 'string' || !sameSecret(query.client_secret, this.config.META_APP_SECRET)) {
      throw oauthError(1, 'Error validating client secret.');
    }
    // The popup flow has no redirect; Meta refuses an exchange that names one.
    if (query.redirect_uri !== undefined) {
      throw oauthError(
        100,
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        36008,
      );
    }
    if (typeof query.code !== 'string' || query.code === '') throw oauthError(100, 'Missing code parameter.');
    if (query.code === INVALID_SIGNUP_CODE) throw oauthError(100, 'Invalid verification code format.', 36007);
    return { access_token: newAccessToken(), token_type: 'bearer' };
  }

  /** `POST /{version}/{waba_id}/subscribed_apps`: every WABA is subscribable in the sandbox. */
  subscribeApp(): { success: true } {
    return { success: true };
  }

  /** `POST /{version}/{phone_number_id}/register` `{messaging_product, pin}`. */
  async register(phoneNumberId: string, body: unknown): Promise<{ success: true }> {
    const params = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (params.messaging_product === undefined) throw GraphErrors.invalidParameter('The parameter messaging_product is required.');
    if (params.messaging_product !== 'whatsapp') {
      throw GraphErrors.invalidParameter(`Param messaging_product must be one of {WHATSAPP} - got "${String(params.messaging_product)}".`);
    }
    if (params.pin === undefined) throw GraphErrors.invalidParameter('The parameter pin is required.');
    if (typeof params.pin !== 'string' || !/^\d{6}$/.test(params.pin)) throw GraphErrors.invalidParameter('Param pin must be a 6-digit number.');
    await this.numbers.register(phoneNumberId);
    return { success: true };
  }

  /** `GET /{version}/{phone_number_id}`: the number as WhatsApp Manager shows it. */
  async phoneNumber(phoneNumberId: string): Promise<GraphPhoneNumber> {
    const number = await this.numbers.findById(phoneNumberId);
    if (!number) throw GraphErrors.unknownObject('get', phoneNumberId);
    return {
      id: number.phoneNumberId,
      display_phone_number: displayPhoneNumber(number.phoneNumber),
      verified_name: number.verifiedName,
      quality_rating: 'GREEN',
    };
  }
}
