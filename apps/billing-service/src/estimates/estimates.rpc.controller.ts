import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { EstimatesService } from './estimates.service';

/** Cost estimates other services ask for before they spend (campaign-service before a start, CONTRACT.md §15/§16). */
@Controller()
export class EstimatesRpcController {
  constructor(private readonly estimates: EstimatesService) {}

  @MessagePattern('billing.estimate')
  estimate(@Payload() req: RpcRequest<'billing.estimate'>): Promise<RpcResponse<'billing.estimate'>> {
    return this.estimates.estimate(req);
  }
}
