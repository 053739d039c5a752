import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { PublishTimeoutError, RpcProblemError, RpcTimeoutError, isTransientError } from '@parley/kafka';
import { ProblemTypes, problem, type Problem, type ProblemDetails } from '@parley/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { throwError } from 'rxjs';
import { loggableUrl, redactSecretShapes } from '../logging/secret-shapes';
import { ProblemException } from './problem.exception';

const STATUS_TYPES: Record<number, [string, string]> = {
  400: [ProblemTypes.validation, 'Bad Request'],
  401: [ProblemTypes.unauthorized, 'Unauthorized'],
  403: [ProblemTypes.forbidden, 'Forbidden'],
  404: [ProblemTypes.notFound, 'Not Found'],
  405: [ProblemTypes.methodNotAllowed, 'Method Not Allowed'],
  409: [ProblemTypes.conflict, 'Conflict'],
  413: [ProblemTypes.payloadTooLarge, 'Payload Too Large'],
  414: [ProblemTypes.validation, 'URI Too Long'],
  415: [ProblemTypes.unsupportedMediaType, 'Unsupported Media Type'],
  429: [ProblemTypes.rateLimited, 'Too Many Requests'],
  503: [ProblemTypes.unavailable, 'Service Unavailable'],
};

/** Maps anything thrown while answering to a problem and the extra headers it needs. Never leaks internals. */
export function toProblem(exception: unknown): { problem: Problem; headers: Record<string, string>; unexpected: boolean } {
  if (exception instanceof ProblemException) return { problem: exception.problem, headers: exception.headers, unexpected: false };
  if (exception instanceof RpcProblemError) return { problem: exception.problem, headers: {}, unexpected: false };
  if (exception instanceof RpcTimeoutError || exception instanceof PublishTimeoutError || isTransientError(exception)) {
    return {
      problem: problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'The service is temporarily unable to take this request; retry shortly.'),
      headers: { 'retry-after': '5' },
      unexpected: false,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const [type, title] = STATUS_TYPES[status] ?? [status >= 500 ? ProblemTypes.internal : ProblemTypes.validation, exception.name];
    const response = exception.getResponse();
    const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
    const detail = status >= 500 ? 'An unexpected error occurred.' : Array.isArray(message) ? message.join('; ') : String(message ?? title);
    return { problem: problem(status, type, title, detail), headers: {}, unexpected: status >= 500 };
  }
  const status = (exception as { statusCode?: unknown })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Fastify's own errors (body parsing, content type, size) carry a statusCode and a safe message.
    const [type, title] = STATUS_TYPES[status] ?? [ProblemTypes.validation, 'Bad Request'];
    return { problem: problem(status, type, title, fastifyDetail(exception)), headers: {}, unexpected: false };
  }
  return { problem: problem(500, ProblemTypes.internal, 'Internal Server Error', 'An unexpected error occurred.'), headers: {}, unexpected: true };
}

function fastifyDetail(exception: unknown): string {
  const code = (exception as { code?: string }).code;
  switch (code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is larger than this route accepts.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Send the body as application/json.';
    default:
      // Router errors quote the path, where a caller may have pasted a credential.
      return redactSecretShapes(String((exception as Error).message ?? 'The request could not be processed.')).slice(0, 300);
  }
}

export function sendProblem(reply: FastifyReply, request: FastifyRequest, exception: unknown, logger: Logger): void {
  const { problem: p, headers, unexpected } = toProblem(exception);
  if (unexpected) logger.error(`unexpected error on ${request.method} ${loggableUrl(request.url)} (request ${String(request.id)})`, exception instanceof Error ? exception.stack : String(exception));
  // Malformed JSON arrives as fastify's own 400: give it its own stable type.
  const body =
    (exception as { code?: string })?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (exception as { code?: string })?.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
      ? { ...p, type: ProblemTypes.malformedJson, title: 'Malformed JSON' }
      : p;
  void reply
    .status(body.status)
    .headers(headers)
    .header('content-type', 'application/problem+json')
    .send({ ...body, instance: loggableUrl(request.url), request_id: String(request.id) } satisfies ProblemDetails);
}

/**
 * The one exception filter: every HTTP error is problem+json with the request id. For Kafka handlers it rethrows
 * the original error so the transport can tell a transient failure from a poison message.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemFilter');

  catch(exception: unknown, host: ArgumentsHost) {
    if (host.getType() !== 'http') return throwError(() => exception);
    const http = host.switchToHttp();
    sendProblem(http.getResponse<FastifyReply>(), http.getRequest<FastifyRequest>(), exception, this.logger);
    return undefined;
  }
}
