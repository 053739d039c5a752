import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseFilters, UseGuards } from '@nestjs/common';
import { AccessTokenGuard, GraphVersionPipe } from '../cloud-api/access-token.guard';
import { GraphErrorFilter } from '../cloud-api/graph-error.filter';
import { SandboxTemplatesService } from './templates.service';

/** Graph's `/{version}/{waba_id}/message_templates`: submit, list and delete message templates. */
@Controller(':version/:waba_id/message_templates')
@UseGuards(AccessTokenGuard)
@UseFilters(GraphErrorFilter)
export class TemplatesController {
  constructor(private readonly templates: SandboxTemplatesService) {}

  @Post()
  @HttpCode(200)
  create(@Param('version', GraphVersionPipe) _version: string, @Param('waba_id') wabaId: string, @Body() body: unknown) {
    return this.templates.create(wabaId, body);
  }

  @Get()
  list(@Param('version', GraphVersionPipe) _version: string, @Param('waba_id') wabaId: string, @Query('name') name?: string) {
    return this.templates.list(wabaId, name);
  }

  @Delete()
  @HttpCode(200)
  remove(@Param('version', GraphVersionPipe) _version: string, @Param('waba_id') wabaId: string, @Query('name') name?: string, @Query('hsm_id') hsmId?: string) {
    return this.templates.remove(wabaId, name, hsmId);
  }
}
