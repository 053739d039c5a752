import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { CalendarFeedService } from './calendar-feed.service';

/** `GET /api/v1/integrations/calendar`, `POST …/rotate` and the feed itself (`GET /calendar/{token}.ics`). */
@Controller()
export class CalendarFeedRpcController {
  constructor(private readonly feeds: CalendarFeedService) {}

  @MessagePattern('appointments.feed-token')
  token(@Payload() req: RpcRequest<'appointments.feed-token'>): Promise<RpcResponse<'appointments.feed-token'>> {
    return this.feeds.tokenOf(req.tenant_id);
  }

  @MessagePattern('appointments.feed-rotate')
  rotate(@Payload() req: RpcRequest<'appointments.feed-rotate'>): Promise<RpcResponse<'appointments.feed-rotate'>> {
    return this.feeds.rotate(req.tenant_id);
  }

  @MessagePattern('appointments.feed')
  feed(@Payload() req: RpcRequest<'appointments.feed'>): Promise<RpcResponse<'appointments.feed'>> {
    return this.feeds.render(req.token);
  }
}
