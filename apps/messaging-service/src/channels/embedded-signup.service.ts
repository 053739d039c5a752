import { Injectable, Logger } from '@nestjs/common';
import { ProblemTypes, problem, type ChannelView } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { randomInt } from 'node:crypto';
import { ChannelsService } from './channels.service';
import { GraphSignupClient, GraphStepError } from './graph-signup.client';

export interface EmbeddedSignupInput {
  code: string;
  waba_id: string;
  phone_number_id: string;
}

/** The request field each step's refusal is about (a 4xx from Graph there is the caller's input). */
const STEP_FIELD: Record<GraphStepError['step'], keyof EmbeddedSignupInput> = {
  exchange_code: 'code',
  subscribe_app: 'waba_id',
  register_number: 'phone_number_id',
  read_number: 'phone_number_id',
};

const STEP_WHAT: Record<GraphStepError['step'], string> = {
  exchange_code: 'The signup code could not be exchanged for a business token',
  subscribe_app: 'The app could not be subscribed to the WhatsApp Business Account',
  register_number: 'The phone number could not be registered',
  read_number: 'The phone number could not be read',
};

/**
 * The server side of Meta's embedded signup (CONTRACT.md §6): exchange the popup's code for a business token,
 * subscribe the app to the WABA, register the number with a fresh two-step PIN, read its display number, and only
 * then store the channel — so a failure at any step leaves no channel behind.
 */
@Injectable()
export class EmbeddedSignupService {
  private readonly logger = new Logger(EmbeddedSignupService.name);

  constructor(
    private readonly graph: GraphSignupClient,
    private readonly channels: ChannelsService,
  ) {}

  async connect(tenantId: string, input: EmbeddedSignupInput): Promise<ChannelView> {
    if (await this.channels.isConnected(input.phone_number_id)) {
      throw new ProblemException(
        problem(409, ProblemTypes.conflict, 'Conflict', `The WhatsApp number with phone_number_id ${input.phone_number_id} is already connected.`, [
          { field: 'phone_number_id', message: 'this number is already connected' },
        ]),
      );
    }
    const pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
    let token: string;
    let display: string;
    try {
      token = await this.graph.exchangeCode(input.code);
      await this.graph.subscribeApp(input.waba_id, token);
      await this.graph.register(input.phone_number_id, pin, token);
      display = await this.graph.displayNumber(input.phone_number_id, token);
    } catch (err) {
      if (err instanceof GraphStepError) throw this.stepProblem(tenantId, err);
      throw err;
    }
    return this.channels.connect(tenantId, {
      provider: 'meta',
      phone_number: `+${display.replace(/\D/g, '')}`,
      phone_number_id: input.phone_number_id,
      waba_id: input.waba_id,
      access_token: token,
      registration_pin: pin,
    });
  }

  /** A refusal of the caller's input (Graph 4xx other than our own auth) is a 400 naming the field; the rest a 502. */
  private stepProblem(tenantId: string, err: GraphStepError): ProblemException {
    this.logger.warn(`embedded signup of tenant ${tenantId} failed: ${err.message}`);
    const field = STEP_FIELD[err.step];
    const callerInput = err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 403 && err.status !== 429;
    if (callerInput) {
      return new ProblemException(
        problem(400, ProblemTypes.validation, 'Embedded signup failed', `${STEP_WHAT[err.step]}: ${err.graphMessage}. Nothing was connected.`, [
          { field, message: err.graphMessage },
        ]),
      );
    }
    return new ProblemException(
      problem(502, ProblemTypes.unavailable, 'Bad Gateway', `${STEP_WHAT[err.step]}: the Graph API answered ${err.status || 'nothing'} (${err.graphMessage}). Nothing was connected; retry later.`),
    );
  }
}
