import { IsE164 } from '@parley/contracts';
import { IsString, Length } from 'class-validator';

/** `POST /api/v1/playground/inbound`: the tenant plays a customer writing to one of its own numbers. */
export class PlaygroundInboundBody {
  /** The customer's number. */
  @IsE164()
  from!: string;

  /** One of the tenant's connected numbers. */
  @IsString()
  @Length(1, 32)
  to!: string;

  @IsString()
  @Length(1, 4096)
  text!: string;
}

/** `GET /api/v1/playground/messages?customer=`: what the sandbox delivered to that customer. */
export class PlaygroundMessagesQuery {
  @IsE164()
  customer!: string;
}
