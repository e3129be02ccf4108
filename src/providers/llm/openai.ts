/*
 * OpenAI-style chat completions (llama.cpp server, vLLM, Ollama, hosted APIs).
 *
 * Servers differ in what they accept for structured output, so the request degrades in steps and
 * remembers the first step the server took: `response_format: json_schema`, then a forced tool
 * call, then plain JSON read out of the reply text. Only a 400/422 (the server refusing the shape)
 * moves to the next step; any other failure is the provider's answer.
 */
import type { ChatModel, ChatOptions } from './chat.js';
import { asProviderError, withDeadline } from './deadline.js';
import {
  createGenerativeProvider,
  type StructuredBackend,
  type StructuredRequest,
  type Timeouts,
} from './generative.js';
import { extractJson, MalformedOutput } from './output.js';
import { TOOL_NAME } from './prompt.js';
import { ProviderError } from '../errors.js';
import type { ModelProvider } from './types.js';

const PROVIDER = 'openai';
type Shape = 'json_schema' | 'tools' | 'plain';
const SHAPES: readonly Shape[] = ['json_schema', 'tools', 'plain'];

/** Where the server is and who we are to it. */
export interface OpenAiConnection {
  /** VOICE_OPENAI_BASE_URL: the address `/chat/completions` is appended to. */
  baseUrl: string;
  /** VOICE_OPENAI_MODEL. */
  model: string;
  /** VOICE_OPENAI_API_KEY, sent as a Bearer token; never logged. */
  apiKey?: string;
  fetch?: typeof fetch;
}

export interface OpenAiOptions extends OpenAiConnection, Timeouts {}
export interface OpenAiChatOptions extends OpenAiConnection, ChatOptions {}

interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

class ShapeRefused extends Error {}

function endpoint(conn: OpenAiConnection): string {
  return `${conn.baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

async function post(conn: OpenAiConnection, body: unknown, signal: AbortSignal): Promise<unknown> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (conn.apiKey) headers.authorization = `Bearer ${conn.apiKey}`;
  const doFetch = conn.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(endpoint(conn), { method: 'POST', headers, body: JSON.stringify(body), signal });
  } catch (err) {
    throw asProviderError(PROVIDER, err, signal);
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    const message = errorMessage(text) ?? (res.statusText || 'request failed');
    const err = new ProviderError(PROVIDER, `HTTP ${res.status}: ${message}`, res.status === 429 || res.status >= 500);
    if (res.status === 400 || res.status === 422) throw Object.assign(new ShapeRefused(err.message), { cause: err });
    throw err;
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderError(PROVIDER, 'response body is not JSON');
  }
}

function errorMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const e = parsed.error;
    const m = typeof e === 'string' ? e : (e?.message ?? parsed.message);
    return typeof m === 'string' && m ? m.slice(0, 300) : undefined;
  } catch {
    return body.trim().slice(0, 300) || undefined;
  }
}

function requestBody(model: string, req: StructuredRequest, shape: Shape): Record<string, unknown> {
  const messages: ChatMessage[] = [
    { role: 'system', content: req.system },
    { role: 'user', content: req.user },
  ];
  const body: Record<string, unknown> = {
    model,
    messages,
    temperature: 0,
    max_tokens: req.mode === 'final' ? 1500 : 600,
  };
  if (shape === 'json_schema') {
    body.response_format = { type: 'json_schema', json_schema: { name: TOOL_NAME, strict: true, schema: req.schema } };
  } else if (shape === 'tools') {
    body.tools = [
      {
        type: 'function',
        function: { name: TOOL_NAME, description: 'Record the scam assessment of the call.', parameters: req.schema },
      },
    ];
    body.tool_choice = { type: 'function', function: { name: TOOL_NAME } };
  }
  return body;
}

/** The JSON value in a completion: a tool call's arguments, or the message text. */
function structuredContent(completion: unknown): unknown {
  const message = (completion as { choices?: Array<{ message?: Record<string, unknown> }> })?.choices?.[0]?.message;
  if (!message) throw new MalformedOutput('no choices[0].message in the completion');
  const calls = message.tool_calls as Array<{ function?: { name?: string; arguments?: unknown } }> | undefined;
  const call = calls?.find((c) => c.function?.name === TOOL_NAME) ?? calls?.[0];
  if (call?.function?.arguments !== undefined) {
    const args = call.function.arguments;
    return typeof args === 'string' ? extractJson(args) : args;
  }
  if (typeof message.content === 'string' && message.content.trim()) return extractJson(message.content);
  throw new MalformedOutput('the completion has neither a tool call nor content');
}

export function createOpenAiProvider(options: OpenAiOptions): ModelProvider {
  let firstShape = 0;
  const backend: StructuredBackend = async (req, signal) => {
    for (let i = firstShape; i < SHAPES.length; i++) {
      try {
        const completion = await post(options, requestBody(options.model, req, SHAPES[i]!), signal);
        firstShape = i;
        return structuredContent(completion);
      } catch (err) {
        if (!(err instanceof ShapeRefused) || i === SHAPES.length - 1) {
          throw err instanceof ShapeRefused ? err.cause : err;
        }
      }
    }
    throw new ProviderError(PROVIDER, 'no request shape accepted');
  };
  return createGenerativeProvider(PROVIDER, `${PROVIDER}:${options.model}`, backend, options);
}

export function createOpenAiChat(options: OpenAiChatOptions): ChatModel {
  const timeoutMs = options.timeoutMs ?? 8000;
  return {
    id: `${PROVIDER}:${options.model}`,
    reply: (system, turns, signal) =>
      withDeadline(PROVIDER, timeoutMs, signal, async (inner) => {
        const messages: ChatMessage[] = [
          { role: 'system', content: system },
          ...turns.filter((t) => t.text.trim()).map((t) => ({ role: t.role, content: t.text })),
        ];
        let completion: unknown;
        try {
          completion = await post(
            options,
            { model: options.model, messages, temperature: 0.7, max_tokens: 300 },
            inner,
          );
        } catch (err) {
          throw err instanceof ShapeRefused ? err.cause : err;
        }
        const content = (completion as { choices?: Array<{ message?: { content?: unknown } }> })?.choices?.[0]?.message
          ?.content;
        if (typeof content !== 'string' || !content.trim())
          throw new ProviderError(PROVIDER, 'empty reply from the model');
        return content.trim();
      }),
  };
}
