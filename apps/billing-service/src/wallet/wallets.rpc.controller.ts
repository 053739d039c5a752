import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { WalletsService } from './wallets.service';

/** Request-reply handlers for the wallet routes (CONTRACT.md §16) and the operator's adjustments. */
@Controller()
export class WalletsRpcController {
  constructor(private readonly wallets: WalletsService) {}

  @MessagePattern('billing.wallet')
  get(@Payload() req: RpcRequest<'billing.wallet'>): Promise<RpcResponse<'billing.wallet'>> {
    return this.wallets.get(req.tenant_id);
  }

  @MessagePattern('billing.transactions')
  transactions(@Payload() req: RpcRequest<'billing.transactions'>): Promise<RpcResponse<'billing.transactions'>> {
    return this.wallets.transactions(req.tenant_id, req.limit, req.cursor);
  }

  @MessagePattern('billing.adjust')
  adjust(@Payload() req: RpcRequest<'billing.adjust'>): Promise<RpcResponse<'billing.adjust'>> {
    return this.wallets.adjust(req.tenant_id, req.body);
  }

  @MessagePattern('billing.set-plan')
  setPlan(@Payload() req: RpcRequest<'billing.set-plan'>): Promise<RpcResponse<'billing.set-plan'>> {
    return this.wallets.setPlan(req.tenant_id, req.plan);
  }
}
