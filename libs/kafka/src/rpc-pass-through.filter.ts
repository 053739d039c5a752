import { Catch, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';

/**
 * Hands a Kafka handler's original error to KafkaTransport. Without it Nest's default RPC filter replaces every
 * error with a generic one, and the transport could no longer tell a transient failure (retry) from a poison
 * message (dead-letter), nor answer a request with the handler's problem. Hybrid apps get the same behaviour from
 * service-kit's ProblemFilter; a pure microservice registers this one with `useGlobalFilters`.
 */
@Catch()
export class RpcPassThroughFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => exception);
  }
}
