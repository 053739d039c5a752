import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessage,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';

/**
 * A thin adapter over the official `openai` client for any OpenAI-compatible server (OpenAI, vLLM, llama.cpp's
 * llama-server, Ollama, LM Studio): chat completions without streaming and embeddings, each call bounded by the
 * reply's deadline, retried by the client a bounded number of times (connection errors, 408/409/429/5xx), and every
 * failure turned into one LlmCallError that names no key and no prompt.
 */

export type ChatMessage = ChatCompletionMessageParam;
export type ChatTool = ChatCompletionFunctionTool;
export type ChatToolCall = ChatCompletionMessageFunctionToolCall;

/** A call that did not produce a usable answer: the server's status (if one answered) and why. */
export class LlmCallError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'LlmCallError';
  }
}

export interface LlmClientOptions {
  /** Including `/v1` (LLM_BASE_URL). */
  baseUrl: string;
  /** Sent as a bearer token when not empty (LLM_API_KEY); local servers need none. */
  apiKey: string;
  /** Retries of one call after a connection error or a retryable status (LLM_MAX_RETRIES). */
  maxRetries: number;
}

/** What one call may spend: the reply's abort signal and the instant it runs out; and who hears of the tokens spent. */
export interface CallBudget {
  signal: AbortSignal;
  deadline: number;
  /** Told the tokens of every call the server answered (completions and embeddings alike: the server charges both). */
  onUsage?: (model: string, usage: TokenUsage) => void;
}

export interface CompletionRequest {
  model: string;
  messages: ChatMessage[];
  tools: ChatTool[];
}

/** The tokens one completion used, as the server counted them (zeros when it did not say). */
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export class LlmClient {
  private readonly openai: OpenAI;

  constructor(private readonly options: LlmClientOptions) {
    this.openai = new OpenAI({
      baseURL: options.baseUrl,
      // The client insists on a key; with none configured it sends no Authorization header at all.
      apiKey: options.apiKey || 'none',
      ...(options.apiKey ? {} : { defaultHeaders: { authorization: null } }),
      organization: null,
      project: null,
      maxRetries: options.maxRetries,
    });
  }

  /**
   * One completion (no streaming). A refusal or a missing message is a failure like an error status; the budget's
   * `onUsage` hears of the tokens spent even then, since the server charges for them.
   */
  async complete(request: CompletionRequest, budget: CallBudget): Promise<ChatCompletionMessage> {
    const completion = await this.call(budget, (options) =>
      this.openai.chat.completions.create(
        { model: request.model, messages: request.messages, ...(request.tools.length > 0 ? { tools: request.tools, tool_choice: 'auto' as const } : {}), temperature: 0.2 },
        options,
      ),
    );
    if (completion.usage && budget.onUsage) {
      const { prompt_tokens = 0, completion_tokens = 0 } = completion.usage;
      budget.onUsage(request.model, { prompt_tokens, completion_tokens, total_tokens: completion.usage.total_tokens ?? prompt_tokens + completion_tokens });
    }
    const choice = completion.choices?.[0];
    if (!choice?.message) throw new LlmCallError('the answer has no choices[0].message', null);
    if (choice.message.refusal) throw new LlmCallError(`the model refused: ${choice.message.refusal.slice(0, 200)}`, null);
    if (choice.finish_reason === 'content_filter') throw new LlmCallError('the answer was filtered', null);
    return choice.message;
  }

  /** Embeddings of `texts`, in order (floats requested: not every compatible server speaks base64). */
  async embed(model: string, texts: string[], budget: CallBudget): Promise<number[][]> {
    const response = await this.call(budget, (options) => this.openai.embeddings.create({ model, input: texts, encoding_format: 'float' }, options));
    if (response.usage && budget.onUsage) {
      const { prompt_tokens = 0 } = response.usage;
      budget.onUsage(model, { prompt_tokens, completion_tokens: 0, total_tokens: response.usage.total_tokens ?? prompt_tokens });
    }
    const vectors = [...(response.data ?? [])].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    if (vectors.length !== texts.length || vectors.some((v) => !Array.isArray(v) || v.length === 0)) {
      throw new LlmCallError(`the embeddings answer has ${vectors.length} vectors for ${texts.length} texts`, null);
    }
    return vectors;
  }

  private async call<T>(budget: CallBudget, run: (options: { signal: AbortSignal; timeout: number }) => Promise<T>): Promise<T> {
    const timeout = budget.deadline - Date.now();
    if (timeout <= 0 || budget.signal.aborted) throw new LlmCallError('timed out', null);
    try {
      return await run({ signal: budget.signal, timeout });
    } catch (err) {
      if (err instanceof APIUserAbortError) throw new LlmCallError('timed out', null);
      // APIConnectionTimeoutError is an APIConnectionError: the attempt (and its retries) ran out of time.
      if (err instanceof APIConnectionError) throw new LlmCallError(this.redacted(`unreachable or timed out: ${err.message}`), null);
      if (err instanceof APIError) throw new LlmCallError(this.redacted(`HTTP ${err.status ?? '?'}: ${err.message}`.slice(0, 400)), err.status ?? null);
      throw new LlmCallError(this.redacted(`${(err as Error)?.name}: ${(err as Error)?.message}`), null);
    }
  }

  /** Some servers echo the key they refused; it must not reach a log. */
  private redacted(message: string): string {
    return this.options.apiKey ? message.replaceAll(this.options.apiKey, '[redacted]') : message;
  }
}
