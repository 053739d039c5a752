import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { CreateAccountBody, type CreatedAccount } from '@parley/contracts';
import { Public, RequestId } from '../../http/request-context';
import { AddressLimitGuard, LimitPerAddress } from '../../rate-limits/address-limit.guard';
import { AccountsService } from './accounts.service';
import { ApiRoute } from '../../openapi/api-route.decorator';

@Controller('api/v1/accounts')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  /** Sign-up needs no credential: it is where the credentials come from. */
  @ApiRoute({
    summary: 'Create an account (sign up)',
    description: 'The client secret and the API key are shown this once. Limited per client address.',
    access: 'public',
    body: CreateAccountBody,
    success: { status: 201, description: 'The new tenant and its credentials.', schema: 'CreatedAccount' },
    errors: [429],
  })
  @Post()
  @Public()
  @HttpCode(201)
  @LimitPerAddress('accounts')
  @UseGuards(AddressLimitGuard)
  create(@Body() body: CreateAccountBody, @RequestId() requestId: string): Promise<CreatedAccount> {
    return this.accounts.create(body, requestId);
  }
}
