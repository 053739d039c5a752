import { Controller, Get, Query } from '@nestjs/common';
import type { AppointmentRecord, Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';

/** Bookings made by `appointment_booking` (CONTRACT.md §9), owned by responder-service. */
@Controller('api/v1/appointments')
export class AppointmentsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({ summary: 'List booked appointments', access: 'tenant', query: ListQueryDto, success: { status: 200, description: 'A page of appointments.', schema: 'AppointmentPage' } })
  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<AppointmentRecord>> {
    return this.rpc.request('appointments.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }
}
