import { validationProblem, type FieldError } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 50;

/** The page size of a list request: default 50, at most 100; anything else is a 400 naming `limit`. */
export function pageLimit(limit: unknown): number {
  if (limit === undefined || limit === null) return DEFAULT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw invalid([{ field: 'limit', message: `limit must be an integer from 1 to ${MAX_LIMIT}` }]);
  }
  return limit;
}

export function invalid(errors: FieldError[]): ProblemException {
  return new ProblemException(validationProblem(errors, 'The query is not valid.'));
}
