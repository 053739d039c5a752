/**
 * The checks OpenAI's `POST /v1/chat/completions` makes before it runs a model, so that a client mistake fails here as
 * it would in production (vLLM and llama.cpp are laxer; OpenAI is the strictest target). Messages follow OpenAI's own
 * wording and `param` paths (`messages.[2].tool_call_id`).
 */

export interface RequestRejection {
  message: string;
  param: string | null;
  code: string | null;
}

/** The request fields of the chat-completions API; anything else is "Unrecognized request argument". */
const REQUEST_FIELDS = new Set([
  'model', 'messages', 'tools', 'tool_choice', 'parallel_tool_calls', 'temperature', 'top_p', 'n', 'stream', 'stream_options',
  'stop', 'max_tokens', 'max_completion_tokens', 'presence_penalty', 'frequency_penalty', 'logit_bias', 'logprobs',
  'top_logprobs', 'user', 'seed', 'response_format', 'service_tier', 'store', 'metadata', 'modalities', 'audio',
  'prediction', 'reasoning_effort', 'verbosity', 'web_search_options', 'prompt_cache_key', 'safety_identifier',
  'functions', 'function_call',
]);

/** The fields each message role may carry. */
const MESSAGE_FIELDS: Record<string, Set<string>> = {
  system: new Set(['role', 'content', 'name']),
  developer: new Set(['role', 'content', 'name']),
  user: new Set(['role', 'content', 'name']),
  assistant: new Set(['role', 'content', 'name', 'tool_calls', 'refusal', 'audio', 'function_call']),
  tool: new Set(['role', 'content', 'tool_call_id']),
};

const TOOL_CALL_FIELDS = new Set(['id', 'type', 'function']);
const TOOL_FIELDS = new Set(['type', 'function']);
const FUNCTION_FIELDS = new Set(['name', 'description', 'parameters', 'strict']);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const reject = (message: string, param: string | null, code: string | null = null): RequestRejection => ({ message, param, code });

/** The first reason OpenAI would refuse this body with a 400, or null when it is well formed. */
export function rejectChatRequest(body: unknown): RequestRejection | null {
  if (!isObject(body)) return reject('We could not parse the JSON body of your request.', null);
  for (const field of Object.keys(body)) {
    if (!REQUEST_FIELDS.has(field)) return reject(`Unrecognized request argument supplied: ${field}`, null);
  }
  if (typeof body.model !== 'string' || body.model === '') return reject('you must provide a model parameter', null);
  if (body.stream === true) return reject('This stand-in does not stream: send stream false or leave it out.', 'stream', 'unsupported_value');
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return reject("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array');
  }
  return rejectTools(body.tools) ?? rejectMessages(body.messages as unknown[]);
}

function rejectTools(tools: unknown): RequestRejection | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return reject("Invalid type for 'tools': expected an array.", 'tools', 'invalid_type');
  for (const [i, tool] of tools.entries()) {
    const at = `tools[${i}]`;
    if (!isObject(tool) || tool.type !== 'function' || !isObject(tool.function)) return reject(`Invalid value for '${at}': expected a function tool.`, at);
    const extra = unknownField(tool, TOOL_FIELDS) ?? unknownField(tool.function, FUNCTION_FIELDS);
    if (extra) return reject(`Unrecognized request argument supplied: ${at}.${extra}`, at);
    if (typeof tool.function.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.function.name)) {
      return reject(`Invalid '${at}.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `${at}.function.name`, 'invalid_value');
    }
  }
  return null;
}

/**
 * Role order as OpenAI enforces it: a `tool` message answers a call of the closest preceding assistant message with
 * `tool_calls`, only tool messages may follow such an assistant message until each of its calls is answered, and
 * each call is answered once.
 */
function rejectMessages(messages: unknown[]): RequestRejection | null {
  let open: Set<string> | null = null; // ids of the last assistant tool_calls still unanswered
  for (const [i, message] of messages.entries()) {
    const at = `messages.[${i}]`;
    if (!isObject(message)) return reject(`Invalid type for '${at}': expected an object.`, at, 'invalid_type');
    const role = message.role;
    const allowed = typeof role === 'string' ? MESSAGE_FIELDS[role] : undefined;
    if (!allowed) return reject(`Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'function', and 'developer'.`, `${at}.role`, 'invalid_value');
    const extra = unknownField(message, allowed);
    if (extra) return reject(`Additional properties are not allowed ('${extra}' was unexpected) - '${at}'`, at);

    if (open && open.size > 0 && role !== 'tool') {
      return reject(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
        `${at}.role`,
      );
    }
    if (role === 'tool') {
      if (open === null) return reject("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `${at}.role`);
      const id = message.tool_call_id;
      if (typeof id !== 'string') return reject(`Missing required parameter: '${at}.tool_call_id'.`, `${at}.tool_call_id`, 'missing_required_parameter');
      if (!open.delete(id)) return reject(`Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`, `${at}.tool_call_id`);
      if (typeof message.content !== 'string') return reject(`Invalid type for '${at}.content': expected a string.`, `${at}.content`, 'invalid_type');
      continue;
    }
    open = null;
    if (role === 'assistant') {
      const calls = message.tool_calls;
      if (calls !== undefined) {
        const rejected = rejectToolCalls(calls, at);
        if (rejected) return rejected;
        open = new Set((calls as Json[]).map((c) => c.id as string));
      }
      if (typeof message.content !== 'string' && !(message.content === null && open)) {
        return reject(`Invalid value for 'content': expected a string, got ${message.content === null ? 'null' : typeof message.content}.`, `${at}.content`);
      }
    } else if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
      return reject(`Invalid type for '${at}.content': expected one of a string or array of objects.`, `${at}.content`, 'invalid_type');
    }
  }
  if (open && open.size > 0) {
    return reject(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
      `messages.[${messages.length - 1}].role`,
    );
  }
  return null;
}

function rejectToolCalls(calls: unknown, at: string): RequestRejection | null {
  if (!Array.isArray(calls) || calls.length === 0) return reject(`Invalid '${at}.tool_calls': expected a non-empty array.`, `${at}.tool_calls`, 'invalid_value');
  for (const [j, call] of calls.entries()) {
    const callAt = `${at}.tool_calls.[${j}]`;
    if (!isObject(call) || typeof call.id !== 'string' || call.type !== 'function' || !isObject(call.function)) {
      return reject(`Invalid value for '${callAt}': expected {id, type: 'function', function: {name, arguments}}.`, callAt);
    }
    const extra = unknownField(call, TOOL_CALL_FIELDS) ?? unknownField(call.function, new Set(['name', 'arguments']));
    if (extra) return reject(`Additional properties are not allowed ('${extra}' was unexpected) - '${callAt}'`, callAt);
    if (typeof call.function.name !== 'string' || typeof call.function.arguments !== 'string') {
      return reject(`Invalid type for '${callAt}.function': 'name' and 'arguments' must be strings.`, `${callAt}.function`, 'invalid_type');
    }
  }
  return null;
}

function unknownField(object: Json, allowed: Set<string>): string | null {
  return Object.keys(object).find((k) => !allowed.has(k)) ?? null;
}
