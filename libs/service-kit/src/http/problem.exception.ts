import { HttpException } from '@nestjs/common';
import type { Problem } from '@parley/contracts';

/** An error answered as this problem+json (status, type, detail, field errors). */
export class ProblemException extends HttpException {
  constructor(
    readonly problem: Problem,
    readonly headers: Record<string, string> = {},
  ) {
    super(problem, problem.status);
  }
}
