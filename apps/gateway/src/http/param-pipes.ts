import { Injectable, type PipeTransform } from '@nestjs/common';
import { AGENT_NAME_PATTERN, AGENT_NAME_RULE, hasPrefix, notFoundProblem, validationProblem, type IdPrefix } from '@parley/contracts';
import { ProblemException, redactSecretShapes } from '@parley/service-kit';

/** An agent name in the path (`/agents/{agent_name}`): 400 naming the parameter when it breaks the naming rule. */
@Injectable()
export class AgentNamePipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!AGENT_NAME_PATTERN.test(value)) {
      throw new ProblemException(validationProblem([{ field: 'agent_name', message: `agent_name ${AGENT_NAME_RULE}` }], 'The agent name in the path is not valid.'));
    }
    return value;
  }
}

/**
 * A resource id in the path. One that cannot be ours (wrong prefix or shape) is simply not found, like another
 * tenant's, without a call to the owning service.
 */
export class PrefixedIdPipe implements PipeTransform<string, string> {
  constructor(
    private readonly prefix: IdPrefix,
    private readonly what: string,
  ) {}

  transform(value: string): string {
    if (hasPrefix(value, this.prefix)) return value;
    // Echoed for the caller's benefit, but never a credential pasted in by mistake.
    throw new ProblemException(notFoundProblem(`${this.what} "${redactSecretShapes(String(value)).slice(0, 100)}"`));
  }
}
