import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { AppointmentsStore } from './appointments.store';

/** `GET /api/v1/appointments` (CONTRACT.md §9). */
@Controller()
export class AppointmentsRpcController {
  constructor(private readonly appointments: AppointmentsStore) {}

  @MessagePattern('appointments.list')
  list(@Payload() req: RpcRequest<'appointments.list'>): Promise<RpcResponse<'appointments.list'>> {
    return this.appointments.list(req.tenant_id, req.limit, req.cursor);
  }
}
