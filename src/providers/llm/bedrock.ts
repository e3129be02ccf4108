/*
 * AWS Bedrock Runtime through the Converse API. Structured output is asked for as a forced tool
 * call whose input schema is the assessment schema. Region, credentials and endpoint come from the
 * SDK's standard chain (AWS_REGION, AWS_ACCESS_KEY_ID…, AWS_ENDPOINT_URL_BEDROCK_RUNTIME).
 */
import {
  BedrockRuntimeClient,
  ConverseCommand,
  type BedrockRuntimeClientConfig,
  type ContentBlock,
  type ConverseCommandInput,
  type Message,
} from '@aws-sdk/client-bedrock-runtime';
import type { ChatModel, ChatOptions, ChatTurn } from './chat.js';
import { asProviderError, withDeadline } from './deadline.js';
import { createGenerativeProvider, type StructuredBackend, type Timeouts } from './generative.js';
import { extractJson, MalformedOutput } from './output.js';
import { TOOL_NAME } from './prompt.js';
import { ProviderError } from '../errors.js';
import type { ModelProvider } from './types.js';

const PROVIDER = 'bedrock';
/** Errors worth trying again on the next tick. */
const RETRYABLE = new Set([
  'ThrottlingException',
  'ServiceUnavailableException',
  'ModelNotReadyException',
  'InternalServerException',
  'ModelTimeoutException',
]);

/** What reaches Bedrock: the model, and client settings beyond the SDK's env chain. */
export interface BedrockConnection {
  /** VOICE_BEDROCK_MODEL_ID. */
  modelId: string;
  /** Extra client settings (endpoint, credentials, request handler); the SDK's env chain fills the rest. */
  client?: BedrockRuntimeClientConfig;
}

export interface BedrockOptions extends BedrockConnection, Timeouts {}
export interface BedrockChatOptions extends BedrockConnection, ChatOptions {}

export function createBedrockClient(options: BedrockRuntimeClientConfig = {}): BedrockRuntimeClient {
  return new BedrockRuntimeClient({
    region: process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || 'us-east-1',
    // One attempt per call: the live graph scores again on its next tick, and a retry loop would eat the deadline.
    maxAttempts: 1,
    ...options,
  });
}

/** A Bedrock failure as a ProviderError carrying the service's own message. */
export function bedrockError(err: unknown, signal: AbortSignal): unknown {
  if (signal.aborted || err instanceof ProviderError) return asProviderError(PROVIDER, err, signal);
  if (err instanceof Error) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const prefix = status ? `${err.name} (${status})` : err.name;
    return new ProviderError(PROVIDER, `${prefix}: ${err.message}`, RETRYABLE.has(err.name) || status === 429);
  }
  return new ProviderError(PROVIDER, String(err));
}

/**
 * How structured output is asked for. Not every Bedrock model takes a forced tool choice (some
 * answer ValidationException), so the request degrades to an optional tool, then to plain JSON in
 * the reply text, and remembers the first shape the model accepted.
 */
type Shape = 'forced_tool' | 'auto_tool' | 'plain';
const SHAPES: readonly Shape[] = ['forced_tool', 'auto_tool', 'plain'];

function toolConfig(schema: Record<string, unknown>, shape: Shape): ConverseCommandInput['toolConfig'] {
  if (shape === 'plain') return undefined;
  return {
    tools: [
      {
        toolSpec: {
          name: TOOL_NAME,
          description: 'Record the scam assessment of the call.',
          // The SDK types the schema as a JSON document; ours is plain JSON.
          inputSchema: { json: schema as never },
        },
      },
    ],
    toolChoice: shape === 'forced_tool' ? { tool: { name: TOOL_NAME } } : { auto: {} },
  };
}

/** A refusal of the request's tool settings rather than of the call itself. */
function refusesTools(err: unknown): boolean {
  return err instanceof Error && err.name === 'ValidationException' && /tool/i.test(err.message);
}

export function createBedrockProvider(options: BedrockOptions): ModelProvider {
  const client = createBedrockClient(options.client);
  const { modelId } = options;
  let firstShape = 0;
  const backend: StructuredBackend = async (req, signal) => {
    for (let i = firstShape; ; i++) {
      const shape = SHAPES[i]!;
      try {
        const response = await client.send(
          new ConverseCommand({
            modelId,
            system: [{ text: req.system }],
            messages: [{ role: 'user', content: [{ text: req.user }] }],
            inferenceConfig: { maxTokens: req.mode === 'final' ? 1500 : 600, temperature: 0 },
            toolConfig: toolConfig(req.schema, shape),
          }),
          { abortSignal: signal },
        );
        firstShape = i;
        return structuredContent(response.output?.message?.content ?? []);
      } catch (err) {
        if (i < SHAPES.length - 1 && refusesTools(err) && !signal.aborted) continue;
        throw bedrockError(err, signal);
      }
    }
  };
  const provider = createGenerativeProvider(PROVIDER, `${PROVIDER}:${modelId}`, backend, options);
  return { ...provider, close: async () => client.destroy() };
}

/** The forced tool call's input; a model that answered in text instead still gets its JSON read. */
function structuredContent(content: ContentBlock[]): unknown {
  for (const block of content) {
    if (block.toolUse && block.toolUse.name === TOOL_NAME) {
      const input: unknown = block.toolUse.input;
      return typeof input === 'string' ? extractJson(input) : input;
    }
  }
  const text = content.map((b) => b.text ?? '').join('');
  if (!text.trim()) throw new MalformedOutput('no tool call and no text in the reply');
  return extractJson(text);
}

/** Converse wants user/assistant alternation starting with the user; a persona often speaks first. */
export function toConverseMessages(turns: ChatTurn[]): Message[] {
  const out: Message[] = [];
  for (const t of turns) {
    const text = t.text.trim();
    if (!text) continue;
    const last = out[out.length - 1];
    if (last && last.role === t.role) last.content = [{ text: `${last.content?.[0]?.text ?? ''}\n${text}` }];
    else out.push({ role: t.role, content: [{ text }] });
  }
  if (out[0]?.role !== 'user') out.unshift({ role: 'user', content: [{ text: '[the call connects]' }] });
  if (out[out.length - 1]?.role !== 'user') out.push({ role: 'user', content: [{ text: '[silence]' }] });
  return out;
}

export function createBedrockChat(options: BedrockChatOptions): ChatModel {
  const client = createBedrockClient(options.client);
  const { modelId } = options;
  const timeoutMs = options.timeoutMs ?? 8000;
  return {
    id: `${PROVIDER}:${modelId}`,
    reply: (system, turns, signal) =>
      withDeadline(PROVIDER, timeoutMs, signal, async (inner) => {
        let response;
        try {
          response = await client.send(
            new ConverseCommand({
              modelId,
              system: [{ text: system }],
              messages: toConverseMessages(turns),
              inferenceConfig: { maxTokens: 300, temperature: 0.7 },
            }),
            { abortSignal: inner },
          );
        } catch (err) {
          throw bedrockError(err, inner);
        }
        const text = (response.output?.message?.content ?? [])
          .map((b) => b.text ?? '')
          .join('')
          .trim();
        if (!text) throw new ProviderError(PROVIDER, 'empty reply from the model');
        return text;
      }),
  };
}
