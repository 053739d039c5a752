import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { PricesService } from './prices.service';

/** Request-reply handlers for the price book routes (CONTRACT.md §16). */
@Controller()
export class PricesRpcController {
  constructor(private readonly prices: PricesService) {}

  @MessagePattern('billing.prices')
  list(): Promise<RpcResponse<'billing.prices'>> {
    return this.prices.list();
  }

  @MessagePattern('billing.set-prices')
  set(@Payload() req: RpcRequest<'billing.set-prices'>): Promise<RpcResponse<'billing.set-prices'>> {
    return this.prices.set(req.body);
  }
}
