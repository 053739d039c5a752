import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { ContactsService } from '../contacts/contacts.service';
import { ContactImportsService } from './contact-imports.service';

/** Request-reply handlers for the gateway's contact import and export routes (CONTRACT.md §14). */
@Controller()
export class ContactImportsRpcController {
  constructor(
    private readonly imports: ContactImportsService,
    private readonly contacts: ContactsService,
  ) {}

  @MessagePattern('contacts.import')
  start(@Payload() req: RpcRequest<'contacts.import'>): Promise<RpcResponse<'contacts.import'>> {
    return this.imports.start(req.tenant_id, req.csv);
  }

  @MessagePattern('contacts.import-status')
  status(@Payload() req: RpcRequest<'contacts.import-status'>): Promise<RpcResponse<'contacts.import-status'>> {
    return this.imports.status(req.tenant_id, req.job_id);
  }

  @MessagePattern('contacts.export-page')
  exportPage(@Payload() req: RpcRequest<'contacts.export-page'>): Promise<RpcResponse<'contacts.export-page'>> {
    return this.contacts.exportPage(req.tenant_id, req.limit, req.cursor, typeof req.tag === 'string' ? req.tag : undefined);
  }
}
