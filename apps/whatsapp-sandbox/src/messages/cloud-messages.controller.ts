import { Body, Controller, HttpCode, Param, Post, UseFilters, UseGuards } from '@nestjs/common';
import { AccessTokenGuard, GraphVersionPipe } from '../cloud-api/access-token.guard';
import { GraphErrorFilter } from '../cloud-api/graph-error.filter';
import { MessagesService, type SendResponse } from './messages.service';

/** The Cloud API send route, `POST /{version}/{phone_number_id}/messages`, with Graph-shaped answers and errors. */
@Controller(':version/:id/messages')
@UseGuards(AccessTokenGuard)
@UseFilters(GraphErrorFilter)
export class CloudMessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Post()
  @HttpCode(200)
  send(@Param('version', GraphVersionPipe) _version: string, @Param('id') phoneNumberId: string, @Body() body: unknown): Promise<SendResponse | { success: true }> {
    return this.messages.send(phoneNumberId, body);
  }
}
