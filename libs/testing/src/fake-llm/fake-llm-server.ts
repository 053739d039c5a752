import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rejectChatRequest, type RequestRejection } from './chat-request-rules';
import { embeddingsResponse } from './fake-embeddings';

/**
 * A local stand-in for an OpenAI-compatible LLM server, as strict as OpenAI's own: `POST /v1/chat/completions` with
 * `messages` and `tools`, answering `choices[0].message` with `content`, `tool_calls` (arguments as a JSON string,
 * `finish_reason: "tool_calls"`) or a `refusal`; `POST /v1/embeddings` with deterministic vectors; and OpenAI's
 * error bodies `{error: {message, type, param, code}}`, including the 400s for a request OpenAI would refuse (unknown
 * fields, no model, a tool message answering no call, roles out of order: chat-request-rules.ts). Tests script each
 * answer; without a script it answers from the agent's knowledge tool, so a development stack can be pointed at it
 * (`LLM_BASE_URL=http://127.0.0.1:3200/v1`).
 */

export interface FakeLlmRequest {
  model: string;
  messages: {
    role: string;
    content?: string | null;
    tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  tools?: { type: 'function'; function: { name: string; description?: string; parameters?: unknown } }[];
  tool_choice?: unknown;
  [field: string]: unknown;
}

export interface FakeToolCall {
  name: string;
  /** An object is sent JSON-encoded, as OpenAI does; a string is sent as is (to play a model writing broken JSON). */
  arguments: Record<string, unknown> | string;
}

/** One scripted answer. `delayMs` holds it back first (a slow model). */
export type FakeLlmStep = { delayMs?: number } & (
  | { content: string }
  | { toolCalls: FakeToolCall[]; content?: string | null }
  | { refusal: string }
  | { status: number; message: string; type?: string; code?: string | null }
);

/** Decides the answer to one request; `index` counts the requests this server has received, from 0. */
export type FakeLlmScript = (request: FakeLlmRequest, index: number) => FakeLlmStep | Promise<FakeLlmStep>;

export interface FakeLlmOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (else 401, as OpenAI answers). */
  apiKey?: string;
  /** Serve `POST /v1/embeddings` (default true); false plays a server that has no embeddings model (404). */
  embeddings?: boolean;
}

export class FakeLlmServer {
  /** Every well-formed chat-completions request received, in order. */
  readonly requests: FakeLlmRequest[] = [];
  /** The `Authorization` header of each of `requests` (null when absent), in the same order. */
  readonly authorizations: (string | null)[] = [];
  /** The inputs of every well-formed embeddings request received, in order. */
  readonly embeddingRequests: string[][] = [];
  /** Every request refused with a 400, with the reason given: a client sending one has a bug. */
  readonly rejected: RequestRejection[] = [];
  /** The `usage` of every completion answered, in order (tokens counted as words: deterministic, never zero). */
  readonly usages: CompletionUsage[] = [];
  private script: FakeLlmScript = answerFromKnowledge;

  private constructor(
    private readonly server: Server,
    private readonly options: FakeLlmOptions,
  ) {}

  static async start(options: FakeLlmOptions = {}): Promise<FakeLlmServer> {
    const server = createServer();
    const fake = new FakeLlmServer(server, options);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void fake.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
    });
    return fake;
  }

  /** The base URL to configure as LLM_BASE_URL (it includes `/v1`). */
  get baseUrl(): string {
    const { address, port } = this.server.address() as AddressInfo;
    return `http://${address}:${port}/v1`;
  }

  /** Answers the following requests with this script (until the next call). */
  respond(script: FakeLlmScript): void {
    this.script = script;
  }

  /** Forgets the requests seen and goes back to the default script. */
  reset(): void {
    this.requests.length = 0;
    this.authorizations.length = 0;
    this.embeddingRequests.length = 0;
    this.rejected.length = 0;
    this.usages.length = 0;
    this.script = answerFromKnowledge;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const { apiKey } = this.options;
      if (apiKey !== undefined && req.headers.authorization !== `Bearer ${apiKey}`) {
        return send(res, 401, openAiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
      }
      if (req.method === 'GET' && path === '/v1/models') {
        return send(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'parley' }] });
      }
      const route = req.method === 'POST' && (path === '/v1/chat/completions' || (path === '/v1/embeddings' && this.options.embeddings !== false)) ? path : null;
      if (!route) return send(res, 404, openAiError(`Invalid URL (${req.method} ${path})`, 'invalid_request_error', null));
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return this.refuse(res, { message: 'We could not parse the JSON body of your request.', param: null, code: null });
      }
      if (route === '/v1/embeddings') {
        const answer = embeddingsResponse(body);
        if ('rejection' in answer) return this.refuse(res, answer.rejection);
        const input = (body as { input: string | string[] }).input;
        this.embeddingRequests.push(typeof input === 'string' ? [input] : input);
        return send(res, 200, answer.response);
      }
      const rejection = rejectChatRequest(body);
      if (rejection) return this.refuse(res, rejection);
      const request = body as FakeLlmRequest;
      const index = this.requests.push(request) - 1;
      this.authorizations.push(req.headers.authorization ?? null);
      const step = await this.script(request, index);
      if (step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
      if ('status' in step) return send(res, step.status, openAiError(step.message, step.type ?? 'server_error', step.code ?? null));
      const answer = completion(request, step);
      this.usages.push(answer.usage);
      return send(res, 200, answer);
    } catch (err) {
      send(res, 500, openAiError(`The fake server failed: ${(err as Error).message}`, 'server_error', null));
    }
  }

  private refuse(res: ServerResponse, rejection: RequestRejection): void {
    this.rejected.push(rejection);
    send(res, 400, { error: { message: rejection.message, type: 'invalid_request_error', param: rejection.param, code: rejection.code } });
  }
}

export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

const words = (text: string | null | undefined): number => (text ? text.split(/\s+/).filter(Boolean).length : 0);

function usageOf(request: FakeLlmRequest, message: Record<string, unknown>): CompletionUsage {
  const prompt = 1 + request.messages.reduce((n, m) => n + words(m.content) + words(m.tool_calls?.map((c) => c.function.arguments).join(' ')), 0);
  const completion = 1 + words(message.content as string | null) + words(message.refusal as string | null) + words(JSON.stringify(message.tool_calls ?? ''));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function completion(request: FakeLlmRequest, step: { content: string } | { toolCalls: FakeToolCall[]; content?: string | null } | { refusal: string }) {
  if ('refusal' in step) return envelope(request, { role: 'assistant', content: null, refusal: step.refusal }, 'stop');
  const toolCalls =
    'toolCalls' in step
      ? step.toolCalls.map((c) => ({
          id: `call_${randomBytes(8).toString('hex')}`,
          type: 'function' as const,
          function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
        }))
      : undefined;
  const message = { role: 'assistant', content: step.content ?? null, refusal: null, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
  return envelope(request, message, toolCalls ? 'tool_calls' : 'stop');
}

function envelope(request: FakeLlmRequest, message: Record<string, unknown>, finishReason: 'stop' | 'tool_calls') {
  return {
    id: `chatcmpl-${randomBytes(12).toString('hex')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    system_fingerprint: null,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
    usage: usageOf(request, message),
  };
}

function openAiError(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * The unscripted behaviour, enough for a demo: look the customer's message up with the `search_knowledge` tool when
 * the agent has it, then answer with the best passage, citing its id the way the responder asks (`[id]`), or admit not
 * knowing; without that tool, acknowledge the message.
 */
export const answerFromKnowledge: FakeLlmScript = (request) => {
  const last = request.messages[request.messages.length - 1];
  if (last.role === 'tool') {
    const result = JSON.parse(last.content ?? '{}') as { passages?: { id: string; text: string }[] };
    const best = result.passages?.[0];
    return { content: best ? `${best.text} [${best.id}]` : "I'm not sure about that. Would you like me to connect you with a person from our team?" };
  }
  const question = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  if (request.tools?.some((t) => t.function.name === 'search_knowledge')) return { toolCalls: [{ name: 'search_knowledge', arguments: { query: question } }] };
  return { content: `Thanks for your message! (fake LLM: "${question.slice(0, 100)}")` };
};
