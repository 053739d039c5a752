import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { toProblem } from '@parley/service-kit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GraphApiException, GraphErrors } from './graph-error';

/** Any 4xx as Meta words a bad request (`(#100) …`); anything else as Graph's transient "unexpected error". */
export function graphErrorFor(status: number, detail: string): GraphApiException {
  if (status >= 500) return GraphErrors.unexpected();
  return new GraphApiException(status, { message: `(#100) ${detail}`, type: 'OAuthException', code: 100 });
}

/**
 * On the Cloud-API controllers every error is answered in the Graph shape `{error: {message, type, code, fbtrace_id}}`,
 * never problem+json (which the `_sandbox` routes keep). Controller-scoped, so it wins over the global problem filter.
 */
@Catch()
export class GraphErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger(GraphErrorFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    let error: GraphApiException;
    if (exception instanceof GraphApiException) error = exception;
    else {
      const { problem, unexpected } = toProblem(exception);
      if (unexpected) this.logger.error('unexpected error on a Cloud API route', exception instanceof Error ? exception.stack : String(exception));
      error = graphErrorFor(problem.status, problem.detail);
    }
    void host.switchToHttp().getResponse<FastifyReply>().status(error.status).header('content-type', 'application/json').send(error.toResponse());
  }
}

const GRAPH_ROUTE = /^\/:version\//;

/**
 * Fastify answers some errors itself before Nest sees the request (malformed JSON, wrong content type, body too
 * large), as problem+json. On the Graph routes this rewrites those answers into the Graph error shape.
 */
export function installGraphErrorHook(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const contentType = String(reply.getHeader('content-type') ?? '');
    if (!contentType.startsWith('application/problem+json') || !GRAPH_ROUTE.test(request.routeOptions.url ?? '') || typeof payload !== 'string') {
      done(null, payload);
      return;
    }
    let detail = 'Invalid request';
    try {
      detail = String((JSON.parse(payload) as { detail?: unknown }).detail ?? detail);
    } catch {
      // keep the generic wording
    }
    void reply.header('content-type', 'application/json');
    done(null, JSON.stringify(graphErrorFor(reply.statusCode, detail).toResponse()));
  });
}
