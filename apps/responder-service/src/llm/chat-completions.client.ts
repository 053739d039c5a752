/**
 * The OpenAI chat-completions wire format (the subset Parley speaks) and a thin fetch adapter for it. Any
 * OpenAI-compatible server works: OpenAI, vLLM, llama.cpp's llama-server, Ollama, LM Studio.
 */

export interface ChatToolCall {
  id: string;
  type: 'function';
  /** `arguments` is a JSON string, and models do write invalid ones: parse with care. */
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ChatTool[];
  tool_choice?: 'auto' | 'none' | 'required';
  temperature?: number;
  max_tokens?: number;
}

export interface ChatCompletionResponse {
  id: string;
  choices: { index: number; finish_reason: string | null; message: { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] } }[];
}

/** A call that did not produce a completion: the server's status and OpenAI error message, never the request or key. */
export class LlmCallError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'LlmCallError';
  }
}

export interface ChatCompletionsOptions {
  /** Including `/v1` (LLM_BASE_URL). */
  baseUrl: string;
  /** Sent as a bearer token when not empty (LLM_API_KEY); local servers need none. */
  apiKey: string;
}

/** `POST {baseUrl}/chat/completions` with fetch: no SDK, so the wire format is visible and any compatible server fits. */
export class ChatCompletionsClient {
  private readonly url: string;

  constructor(private readonly options: ChatCompletionsOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  async complete(request: ChatCompletionRequest, signal: AbortSignal): Promise<ChatCompletionResponse> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
        body: JSON.stringify(request),
        signal,
      });
    } catch (err) {
      throw new LlmCallError(signal.aborted ? 'timed out' : `unreachable: ${(err as Error).message}`, null);
    }
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) throw new LlmCallError(`HTTP ${response.status}: ${this.redacted(errorMessage(body))}`, response.status);
    const choices = (body as ChatCompletionResponse | null)?.choices;
    if (!Array.isArray(choices) || !choices[0]?.message) throw new LlmCallError('the answer has no choices[0].message', response.status);
    return body as ChatCompletionResponse;
  }

  /** Some servers echo the key they refused; it must not reach a log. */
  private redacted(message: string): string {
    return this.options.apiKey ? message.replaceAll(this.options.apiKey, '[redacted]') : message;
  }
}

/** OpenAI's error body is `{error: {message, type, code}}`; compatible servers mostly follow it. */
function errorMessage(body: unknown): string {
  const error = (body as { error?: { message?: unknown } | string } | null)?.error;
  const message = typeof error === 'string' ? error : error?.message;
  return typeof message === 'string' ? message.slice(0, 300) : 'no error message';
}
