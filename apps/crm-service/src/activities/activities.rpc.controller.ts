import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { ActivitiesService } from './activities.service';

/** Request-reply handlers for a contact's timeline (CONTRACT.md §14). */
@Controller()
export class ActivitiesRpcController {
  constructor(private readonly activities: ActivitiesService) {}

  @MessagePattern('contacts.activities')
  list(@Payload() req: RpcRequest<'contacts.activities'>): Promise<RpcResponse<'contacts.activities'>> {
    return this.activities.list(req.tenant_id, req.id, req.limit, req.cursor);
  }

  @MessagePattern('contacts.add-activity')
  add(@Payload() req: RpcRequest<'contacts.add-activity'>): Promise<RpcResponse<'contacts.add-activity'>> {
    return this.activities.add(req.tenant_id, req.id, req.body);
  }
}
