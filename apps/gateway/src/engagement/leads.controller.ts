import { Controller, Get, Logger, Query } from '@nestjs/common';
import type { LeadRecord, ListedLead, Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';

/** How long the list waits for crm-service's links before answering without them (the leads are responder-service's). */
const CONTACT_LINKS_TIMEOUT_MS = 2000;

/** Leads collected by `lead_capture` (CONTRACT.md §9), owned by responder-service; their contacts by crm-service. */
@Controller('api/v1/leads')
export class LeadsController {
  private readonly logger = new Logger('LeadsController');

  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'List captured leads',
    description: 'Each with `contact_id`, the contact it made or joined (null while crm-service has not linked it, or cannot be asked).',
    access: 'tenant',
    query: ListQueryDto,
    success: { status: 200, description: 'A page of leads.', schema: 'LeadPage' },
  })
  @Get()
  async list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<ListedLead>> {
    const page = await this.rpc.request('leads.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
    const links = page.data.length === 0 ? {} : await this.contactLinks(tenantId, page.data, requestId);
    return { ...page, data: page.data.map((lead) => ({ ...lead, contact_id: links[lead.id] ?? null })) };
  }

  private contactLinks(tenantId: string, leads: LeadRecord[], requestId: string): Promise<Record<string, string>> {
    return this.rpc
      .request('contacts.of-leads', { tenant_id: tenantId, lead_ids: leads.map((lead) => lead.id) }, { requestId, timeoutMs: CONTACT_LINKS_TIMEOUT_MS })
      .catch((err: unknown) => {
        this.logger.warn(`leads listed without their contacts: ${String(err)}`);
        return {};
      });
  }
}
