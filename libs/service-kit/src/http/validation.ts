import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ProblemTypes, problem, validationProblem, type FieldError } from '@parley/contracts';
import { unstorableTextErrors } from './unstorable-text';
import { ProblemException } from './problem.exception';

/** class-validator errors → one `{field, message}` per broken rule, nested paths written `faqs[0].question`. */
export function toFieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const error of errors) {
    const path = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
    // A missing required field is named as missing; its other rules (type, length) would only repeat that.
    const constraints = error.constraints?.isDefined ? { isDefined: error.constraints.isDefined } : (error.constraints ?? {});
    for (const [rule, message] of Object.entries(constraints)) {
      out.push({ field: path, message: rule === 'whitelistValidation' ? `${path} is not an allowed field` : humanize(message, error.property, path) });
    }
    if (error.children?.length) out.push(...toFieldErrors(error.children, path));
  }
  return out;
}

/** class-validator names the bare property; name the full path instead (`question` → `faqs[0].question`). */
function humanize(message: string, property: string, path: string): string {
  return message.startsWith(`${property} `) ? `${path}${message.slice(property.length)}` : message;
}

const PARTS: Record<ArgumentMetadata['type'], string> = {
  body: 'request body is',
  query: 'query parameters are',
  param: 'path parameters are',
  custom: 'request is',
};

/**
 * The global pipe: a DTO body must be a JSON object; unknown fields are refused (so typos surface); each broken
 * rule becomes a field error in a 400 problem.
 */
export class ProblemValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new ProblemException(validationProblem(toFieldErrors(errors))),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A custom parameter (the tenant, the request id, a header) is never validated (as ValidationPipe itself decides,
    // validateCustomDecorators being off): answered at once, on every parameter of every request.
    if (metadata.type === 'custom') return value;
    const typedBody = metadata.type === 'body' && !!metadata.metatype && this.toValidate(metadata);
    if (typedBody && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw new ProblemException(problem(400, ProblemTypes.validation, 'Invalid request', 'The request body must be a JSON object.'));
    }
    // Query and path values always, bodies bound to a DTO (an untyped body, such as a provider's signed
    // notification, is the handler's own business): a NUL there would otherwise fail in PostgreSQL as a 500.
    if (typedBody || metadata.type === 'query' || metadata.type === 'param') {
      const errors = unstorableTextErrors(value, metadata.data ?? '');
      if (errors.length > 0) throw new ProblemException(validationProblem(errors, `The ${PARTS[metadata.type]} not valid.`));
    }
    try {
      return await super.transform(value, metadata);
    } catch (err) {
      // Say which part of the request was wrong: the body, the query string or the path.
      if (err instanceof ProblemException && metadata.type !== 'body' && err.problem.detail === 'The request body is not valid.') {
        throw new ProblemException({ ...err.problem, detail: `The ${PARTS[metadata.type]} not valid.` }, err.headers);
      }
      throw err;
    }
  }
}

/**
 * Validates a plain object against a DTO class outside the HTTP pipe (request-reply handlers, consumers).
 * Throws the same 400 problem the pipe would.
 */
export async function validateDto<T extends object>(Dto: new () => T, plain: unknown): Promise<T> {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw new ProblemException(problem(400, ProblemTypes.validation, 'Invalid request', 'The request body must be a JSON object.'));
  }
  const unstorable = unstorableTextErrors(plain);
  if (unstorable.length > 0) throw new ProblemException(validationProblem(unstorable));
  const instance = plainToInstance(Dto, plain);
  const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true, validationError: { target: false, value: false } });
  if (errors.length > 0) throw new ProblemException(validationProblem(toFieldErrors(errors)));
  return instance;
}
