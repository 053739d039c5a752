import { Body, Controller, Get, Post, Res } from '@nestjs/common';
import { validateDto } from '@parley/service-kit';
import type { FastifyReply } from 'fastify';
import { ProvisionNumberDto } from './numbers.dto';
import type { SandboxNumberRecord } from './numbers.mapper';
import { NumbersService } from './numbers.service';

/** The sandbox's own number management (problem+json errors). */
@Controller('_sandbox/numbers')
export class SandboxNumbersController {
  constructor(private readonly numbers: NumbersService) {}

  /** `201` with a new number; `200` when the requested number already existed. The body may be omitted. */
  @Post()
  async provision(@Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<SandboxNumberRecord> {
    const dto = await validateDto(ProvisionNumberDto, body ?? {});
    const { created, number } = await this.numbers.provision(dto.phone_number);
    void reply.status(created ? 201 : 200);
    return number;
  }

  @Get()
  async list(): Promise<{ data: SandboxNumberRecord[] }> {
    return { data: await this.numbers.list() };
  }
}
