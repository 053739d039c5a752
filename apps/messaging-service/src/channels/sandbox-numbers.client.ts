import { Injectable } from '@nestjs/common';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { MessagingServiceConfig } from '../config/messaging-service.config';

const TIMEOUT_MS = 5000;

export interface SandboxNumber {
  phone_number: string;
  phone_number_id: string;
  display_phone_number: string;
}

/**
 * The WhatsApp sandbox's number provisioning: `POST {SANDBOX_URL}/_sandbox/numbers {phone_number?}` → `201` with a new
 * number (`200` when the requested one existed already) `{phone_number, phone_number_id, display_phone_number}`.
 */
@Injectable()
export class SandboxNumbersClient {
  constructor(private readonly config: MessagingServiceConfig) {}

  /** An unreachable sandbox answers 503 (retry later); a sandbox that answers something unexpected, 502. */
  async provision(phoneNumber?: string): Promise<SandboxNumber> {
    let response: Response;
    try {
      response = await fetch(`${this.config.SANDBOX_URL}/_sandbox/numbers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(phoneNumber === undefined ? {} : { phone_number: phoneNumber }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'The WhatsApp sandbox is not reachable; retry shortly.'));
    }
    const body = (await response.json().catch(() => null)) as Partial<SandboxNumber> | null;
    if (response.status !== 201 && response.status !== 200) throw badGateway(`it answered HTTP ${response.status}`);
    if (typeof body?.phone_number !== 'string' || typeof body.phone_number_id !== 'string' || !body.phone_number_id) {
      throw badGateway('its answer had no phone_number and phone_number_id');
    }
    return { phone_number: body.phone_number, phone_number_id: body.phone_number_id, display_phone_number: body.display_phone_number ?? body.phone_number };
  }
}

function badGateway(why: string): ProblemException {
  return new ProblemException(problem(502, ProblemTypes.unavailable, 'Bad Gateway', `The WhatsApp sandbox could not provision a number: ${why}.`));
}
