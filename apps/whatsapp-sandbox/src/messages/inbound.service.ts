import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { notFoundProblem, problem, type FieldError } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { newWamid } from '../cloud-api/ids';
import { inboundTextNotification } from '../cloud-api/notifications';
import { GatewayNotifier, describeFailure } from '../notifications/gateway-notifier.service';
import { toBusinessNumber } from '../numbers/numbers.mapper';
import { NumbersService } from '../numbers/numbers.service';
import { MessageEntity } from './message.entity';
import type { InboundMessageDto } from './messages.dto';

const badGateway = (detail: string) => new ProblemException(problem(502, 'https://parley.dev/problems/bad-gateway', 'Bad Gateway', detail));

/** Plays a customer writing to a business number: Meta's signed inbound notification, delivered to the gateway. */
@Injectable()
export class InboundService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly numbers: NumbersService,
    private readonly notifier: GatewayNotifier,
  ) {}

  /** Answers once the gateway has taken the notification (HTTP 200); anything else is the caller's 502. */
  async receive(dto: InboundMessageDto): Promise<{ id: string }> {
    const number = await this.numbers.findByNumber(dto.to);
    if (!number) {
      const errors: FieldError[] = [{ field: 'to', message: 'to must be a number of the sandbox (see GET /_sandbox/numbers)' }];
      throw new ProblemException({ ...notFoundProblem(`The sandbox number ${dto.to}`), errors });
    }
    const id = newWamid();
    const at = new Date();
    await this.db.getRepository(MessageEntity).insert({
      id,
      direction: 'inbound',
      phoneNumberId: number.phoneNumberId,
      businessNumber: number.phoneNumber,
      customerNumber: dto.from,
      type: 'text',
      body: dto.text,
      template: null,
      contextMessageId: null,
      bizOpaqueCallbackData: null,
      createdAt: at,
    });

    const notification = inboundTextNotification(toBusinessNumber(number), { id, from: dto.from, body: dto.text, at });
    const status = await this.notifier.post(notification).catch((err: unknown) => {
      throw badGateway(`The gateway could not be reached: ${describeFailure(err)}.`);
    });
    if (status !== 200) throw badGateway(`The gateway answered ${status} to the inbound notification (it must answer 200).`);
    return { id };
  }
}
