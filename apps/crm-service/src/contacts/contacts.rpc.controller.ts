import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { ContactsService } from './contacts.service';

/** Request-reply handlers for the gateway's contact routes (CONTRACT.md §14). */
@Controller()
export class ContactsRpcController {
  constructor(private readonly contacts: ContactsService) {}

  @MessagePattern('contacts.create')
  create(@Payload() req: RpcRequest<'contacts.create'>): Promise<RpcResponse<'contacts.create'>> {
    return this.contacts.create(req.tenant_id, req.body);
  }

  @MessagePattern('contacts.list')
  list(@Payload() req: RpcRequest<'contacts.list'>): Promise<RpcResponse<'contacts.list'>> {
    const { q, tag, company_id, opted_out } = req;
    return this.contacts.list(req.tenant_id, req.limit, req.cursor, { q, tag, company_id, opted_out });
  }

  @MessagePattern('contacts.get')
  get(@Payload() req: RpcRequest<'contacts.get'>): Promise<RpcResponse<'contacts.get'>> {
    return this.contacts.get(req.tenant_id, req.id);
  }

  @MessagePattern('contacts.update')
  update(@Payload() req: RpcRequest<'contacts.update'>): Promise<RpcResponse<'contacts.update'>> {
    return this.contacts.update(req.tenant_id, req.id, req.body);
  }

  @MessagePattern('contacts.of-leads')
  ofLeads(@Payload() req: RpcRequest<'contacts.of-leads'>): Promise<RpcResponse<'contacts.of-leads'>> {
    return this.contacts.contactsOfLeads(req.tenant_id, req.lead_ids);
  }

  @MessagePattern('contacts.audience-count')
  audienceCount(@Payload() req: RpcRequest<'contacts.audience-count'>): Promise<RpcResponse<'contacts.audience-count'>> {
    return this.contacts.audienceCount(req.tenant_id, req.audience);
  }

  @MessagePattern('contacts.delete')
  async delete(@Payload() req: RpcRequest<'contacts.delete'>): Promise<RpcResponse<'contacts.delete'>> {
    await this.contacts.delete(req.tenant_id, req.id);
    return { deleted: true };
  }
}
