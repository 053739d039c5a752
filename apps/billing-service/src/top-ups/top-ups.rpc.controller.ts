import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { TopUpsService } from './top-ups.service';

/** Request-reply handlers of top-ups and of the payment provider's webhook (relayed by the gateway). */
@Controller()
export class TopUpsRpcController {
  constructor(private readonly topUps: TopUpsService) {}

  @MessagePattern('billing.create-top-up')
  create(@Payload() req: RpcRequest<'billing.create-top-up'>): Promise<RpcResponse<'billing.create-top-up'>> {
    return this.topUps.create(req.tenant_id, req.body);
  }

  @MessagePattern('billing.top-up-receipt-pdf')
  receipt(@Payload() req: RpcRequest<'billing.top-up-receipt-pdf'>): Promise<RpcResponse<'billing.top-up-receipt-pdf'>> {
    return this.topUps.receipt(req.tenant_id, req.top_up_id);
  }

  @MessagePattern('billing.payment-webhook')
  webhook(@Payload() req: RpcRequest<'billing.payment-webhook'>): Promise<RpcResponse<'billing.payment-webhook'>> {
    return this.topUps.handleWebhook(req.payload, req.signature);
  }
}
