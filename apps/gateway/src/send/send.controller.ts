import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { RequestId, Tenant } from '../http/request-context';
import { parseSendBody } from './send-body';
import { SendService, type SendResult } from './send.service';

@Controller('v1/send')
export class SendController {
  constructor(private readonly sends: SendService) {}

  @Post()
  @HttpCode(200)
  async send(@Tenant() tenantId: string, @Body() raw: unknown, @RequestId() requestId: string): Promise<SendResult> {
    return this.sends.send(tenantId, await parseSendBody(raw), requestId);
  }
}
