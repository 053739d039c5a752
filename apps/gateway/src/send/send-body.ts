import { SendMessageBody, validationProblem, type FieldError } from '@parley/contracts';
import { ProblemException, validateDto } from '@parley/service-kit';

const EXACTLY_ONE = 'send exactly one of message (text) or template';

/**
 * Validates a `POST /v1/send` body (CONTRACT.md §4). On top of the field rules of `SendMessageBody`, exactly one of
 * `message` and `template` must be present; every broken rule is reported at once, naming its field.
 */
export async function parseSendBody(raw: unknown): Promise<SendMessageBody> {
  const exclusivity = exclusivityErrors(raw);
  let fieldErrors: FieldError[] = [];
  let body: SendMessageBody | undefined;
  try {
    body = await validateDto(SendMessageBody, raw);
  } catch (err) {
    if (!(err instanceof ProblemException) || !err.problem.errors) throw err;
    fieldErrors = err.problem.errors;
  }
  // With neither given, the DTO's own complaint about a missing `message` says less than ours.
  const neither = exclusivity.length > 0 && !hasField(raw, 'message');
  const errors = [...exclusivity, ...fieldErrors.filter((e) => !(neither && e.field === 'message'))];
  if (errors.length > 0 || !body) throw new ProblemException(validationProblem(errors));
  return body;
}

function exclusivityErrors(raw: unknown): FieldError[] {
  const message = hasField(raw, 'message');
  const template = hasField(raw, 'template');
  if (message !== template) return [];
  const detail = message ? `${EXACTLY_ONE}, not both` : `${EXACTLY_ONE}; neither was given`;
  return [
    { field: 'message', message: detail },
    { field: 'template', message: detail },
  ];
}

function hasField(raw: unknown, field: string): boolean {
  return typeof raw === 'object' && raw !== null && (raw as Record<string, unknown>)[field] !== undefined;
}
