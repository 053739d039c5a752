import { DELIVERY_STATUSES, type WebhookDeliveryStatus } from '@parley/contracts';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '../http/list-query.dto';

/** `?status=&limit=&cursor=` of `GET /api/v1/webhooks/{id}/deliveries`. */
export class DeliveryListQueryDto extends ListQueryDto {
  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: `status must be one of: ${DELIVERY_STATUSES.join(', ')}` })
  status?: WebhookDeliveryStatus;
}
