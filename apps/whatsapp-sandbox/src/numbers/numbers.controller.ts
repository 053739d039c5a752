import { Body, Controller, Get, Param, Post, Put, Res } from '@nestjs/common';
import { notFoundProblem } from '@parley/contracts';
import { ProblemException, validateDto } from '@parley/service-kit';
import type { FastifyReply } from 'fastify';
import { NumberBehaviours, type NumberBehaviour } from './number-behaviours';
import { NumberBehaviourDto, ProvisionNumberDto } from './numbers.dto';
import type { SandboxNumberRecord } from './numbers.mapper';
import { NumbersService } from './numbers.service';

/** The sandbox's own number management (problem+json errors). */
@Controller('_sandbox/numbers')
export class SandboxNumbersController {
  constructor(
    private readonly numbers: NumbersService,
    private readonly behaviours: NumberBehaviours,
  ) {}

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

  /** Makes a number answer sends late or enforce a pair rate; `404` for a number the sandbox does not serve. */
  @Put(':id/behaviour')
  async setBehaviour(@Param('id') phoneNumberId: string, @Body() body: unknown): Promise<NumberBehaviour & { phone_number_id: string }> {
    const dto = await validateDto(NumberBehaviourDto, body ?? {});
    if (!(await this.numbers.findById(phoneNumberId))) {
      throw new ProblemException(notFoundProblem(`Sandbox number ${phoneNumberId}`));
    }
    return { phone_number_id: phoneNumberId, ...this.behaviours.set(phoneNumberId, dto) };
  }
}
