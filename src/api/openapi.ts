/*
 * OpenAPI 3.1 description of the node's HTTP endpoints, served at `GET /voice/openapi.json` (no key).
 * The sockets and webhook posts are described in docs/asyncapi.yaml. The integration tests check real
 * responses against these schemas and that every route the node serves is listed here.
 */
import { CATEGORIES } from '../domain/categories.js';
import { TACTICS } from '../domain/tactics.js';
import { INTEL_LIST_FIELDS } from '../domain/intel.js';
import { MAX_SAMPLE_RATE, MIN_SAMPLE_RATE, SESSIONS_LIMIT_DEFAULT, SESSIONS_LIMIT_MAX } from '../domain/limits.js';

type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const bool: Schema = { type: 'boolean' };
const dateTime: Schema = { type: 'string', format: 'date-time' };

function success(properties: Record<string, Schema>, required: string[]): Schema {
  return {
    type: 'object',
    required: ['status', ...required],
    properties: { status: { const: 'success' }, ...properties },
  };
}

const json = (schema: Schema, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(ref('Error'), description);
const keyed = [{ apiKey: [] }];
const E = {
  400: error('Bad input; the message names the field.'),
  401: error('Missing or wrong key.'),
  404: error('Not found, or owned by another key.'),
  429: error('Rate limit exceeded; see Retry-After.'),
  503: error('Feature off on this deployment.'),
};

const verdict: Schema = {
  type: 'object',
  required: ['score', 'level', 'category', 'tactics', 'signals', 'source'],
  properties: {
    score: { type: 'number', minimum: 0, maximum: 1 },
    level: ref('Level'),
    category: { enum: [...CATEGORIES, 'none'] },
    tactics: { type: 'array', items: { enum: [...TACTICS] } },
    signals: { type: 'array', items: str },
    summary: { type: 'string', description: 'At most two sentences; present when a model produced the verdict.' },
    source: { enum: ['heuristic', 'llm', 'combined', 'stored'] },
  },
};

const intel: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...Object.fromEntries(INTEL_LIST_FIELDS.map((f) => [f, { type: 'array', items: str }])),
    dtmf: { type: 'string', description: 'Every digit pressed, in order.' },
  },
};

const sessionRecord: Schema = {
  type: 'object',
  required: [
    'id',
    'kind',
    'protocol',
    'started_at',
    'turns',
    'transcript',
    'score',
    'level',
    'category',
    'intel_count',
    'reported',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    kind: { enum: ['filter', 'honeypot', 'scan'] },
    protocol: { enum: ['raw', 'vendor_a', 'vendor_b', 'sip', 'http'] },
    call_id: str,
    from: str,
    to: str,
    persona_id: str,
    started_at: dateTime,
    ended_at: dateTime,
    duration_seconds: int,
    turns: int,
    transcript: { type: 'string', description: 'One `speaker: text` line per utterance.' },
    score: { type: 'number', minimum: 0, maximum: 1 },
    level: ref('Level'),
    category: { enum: [...CATEGORIES, 'none'] },
    summary: str,
    intel_count: int,
    reported: bool,
  },
};

const numberStatus: Schema = {
  type: 'object',
  required: ['number', 'reported', 'complaints', 'categories'],
  properties: {
    number: str,
    reported: bool,
    complaints: int,
    categories: { type: 'array', items: str },
    first_seen: dateTime,
    last_seen: dateTime,
  },
};

const domain: Schema = {
  type: 'object',
  required: ['id', 'spam_action', 'updated_at'],
  properties: {
    id: str,
    spam_action: { enum: ['decline', 'honeypot'] },
    forward_uri: str,
    persona: str,
    webhook: str,
    webhook_secret: { type: 'string', description: 'HMAC key of this domain’s webhook posts.' },
    updated_at: dateTime,
  },
};

const scanBody: Schema = {
  type: 'object',
  properties: {
    transcript: { type: 'string', maxLength: 500_000 },
    audio_base64: str,
    encoding: { enum: ['wav', 'pcm16', 'mulaw'], default: 'wav' },
    sample_rate: { type: 'integer', minimum: MIN_SAMPLE_RATE, maximum: MAX_SAMPLE_RATE },
    language: str,
    from: str,
    to: str,
    report: { type: 'boolean', default: false },
  },
};

const vendorXml = (operationId: string, what: string) => ({
  operationId,
  tags: ['vendor XML'],
  summary: what,
  security: [{ apiKey: [] }, { apiKeyQuery: [] }],
  parameters: [
    { name: 'forward', in: 'query', schema: str, description: 'E.164 number the call rings (filter entry points).' },
    { name: 'webhook', in: 'query', schema: str },
    { name: 'tracks', in: 'query', schema: { enum: ['both'] } },
    { name: 'language', in: 'query', schema: str },
    { name: 'report', in: 'query', schema: { enum: ['true', 'false'] } },
    { name: 'persona', in: 'query', schema: str, description: 'Honeypot entry points.' },
  ],
  responses: {
    200: { description: 'Vendor XML.', content: { 'application/xml': { schema: str }, 'text/xml': { schema: str } } },
    400: E[400],
    401: E[401],
    503: E[503],
  },
});

export const OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'voice-shield HTTP API',
    version: '0.1.0',
    description:
      'Live scam filter, honeypot, scan and complaint filing. Every JSON response carries `status` (`success` or `error`); errors carry `message` naming the field or cause. Sockets and webhook posts: see the AsyncAPI document (docs/asyncapi.yaml).',
  },
  servers: [{ url: '/', description: '{api_root}; the voice API is under /voice' }],
  security: keyed,
  components: {
    securitySchemes: {
      apiKey: { type: 'apiKey', in: 'header', name: 'X-Auth' },
      apiKeyQuery: {
        type: 'apiKey',
        in: 'query',
        name: 'key',
        description: 'Sockets and vendor-XML entry points only.',
      },
    },
    schemas: {
      HealthChecks: {
        type: 'object',
        description: 'Each check `up` or `down: <why>`: `store` always; `llm`, `stt` and `tts` when configured.',
        required: ['store'],
        additionalProperties: { type: 'string', pattern: '^(up|down: .+)$' },
      },
      Error: {
        type: 'object',
        required: ['status', 'message'],
        properties: { status: { const: 'error' }, message: str },
      },
      Level: { enum: ['clean', 'suspicious', 'likely_scam', 'scam'] },
      Verdict: verdict,
      Intel: intel,
      SessionRecord: sessionRecord,
      NumberStatus: numberStatus,
      Domain: domain,
      Capabilities: {
        type: 'object',
        required: ['scan', 'live_filter', 'honeypot', 'llm', 'analysis_llm', 'stt', 'tts', 'personas', 'prices'],
        properties: {
          scan: bool,
          live_filter: bool,
          honeypot: bool,
          llm: str,
          analysis_llm: str,
          stt: str,
          tts: str,
          personas: int,
          prices: {
            type: 'object',
            required: [
              'credit_usd',
              'filter_per_minute',
              'honeypot_per_minute',
              'scan',
              'scan_audio_minute',
              'managed_telephony_per_minute',
            ],
            properties: {
              credit_usd: { type: 'number' },
              filter_per_minute: int,
              honeypot_per_minute: int,
              scan: int,
              scan_audio_minute: int,
              managed_telephony_per_minute: int,
            },
          },
        },
      },
    },
  },
  paths: {
    '/voice/capabilities': {
      get: {
        operationId: 'getCapabilities',
        tags: ['discovery'],
        summary: 'What the deployment supports, with prices. No key.',
        security: [],
        responses: { 200: json(success({ capabilities: ref('Capabilities') }, ['capabilities']), 'Capabilities.') },
      },
    },
    '/voice/health': {
      get: {
        operationId: 'getHealth',
        tags: ['discovery'],
        summary:
          'Readiness, no key: 200 when the store and every configured provider answer, 503 naming what is down. Liveness is /voice/capabilities.',
        security: [],
        responses: {
          200: json(success({ ready: { const: true }, checks: ref('HealthChecks') }, ['ready', 'checks']), 'Ready.'),
          503: json(
            {
              type: 'object',
              required: ['status', 'message', 'ready', 'checks'],
              properties: {
                status: { const: 'error' },
                message: { type: 'string', description: 'Names what is down: `not ready: store (…) down`.' },
                ready: { const: false },
                checks: ref('HealthChecks'),
              },
            },
            'Not ready.',
          ),
        },
      },
    },
    '/voice/categories': {
      get: {
        operationId: 'listCategories',
        tags: ['discovery'],
        summary: 'The complaint categories with descriptions and notes that tell close ones apart.',
        responses: {
          200: json(
            success(
              {
                categories: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['name', 'description'],
                    properties: { name: { enum: [...CATEGORIES] }, description: str },
                  },
                },
                notes: { type: 'array', items: str },
              },
              ['categories', 'notes'],
            ),
            'Categories.',
          ),
          401: E[401],
        },
      },
    },
    '/voice/personas': {
      get: {
        operationId: 'listPersonas',
        tags: ['discovery'],
        summary: 'The honeypot personas; use `id` as the `persona` option.',
        responses: {
          200: json(
            success(
              {
                personas: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['id', 'name', 'voice', 'language', 'description'],
                    properties: { id: str, name: str, voice: str, language: str, description: str },
                  },
                },
              },
              ['personas'],
            ),
            'Personas.',
          ),
          401: E[401],
        },
      },
    },
    '/voice/scan': {
      post: {
        operationId: 'scanCall',
        tags: ['scan'],
        summary: 'Score a transcript or a recording after the call (2 credits, plus 1 per started minute of audio).',
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: scanBody },
            'multipart/form-data': {
              schema: {
                ...scanBody,
                properties: {
                  ...(scanBody.properties as Schema),
                  audio: { type: 'string', contentMediaType: 'application/octet-stream' },
                },
              },
            },
          },
        },
        responses: {
          200: json(
            success(
              {
                session_id: { type: 'string', format: 'uuid' },
                verdict: ref('Verdict'),
                intel: ref('Intel'),
                transcript: str,
                reported: bool,
                reported_numbers: int,
              },
              ['session_id', 'verdict', 'intel', 'transcript', 'reported', 'reported_numbers'],
            ),
            'The verdict, stored as a session of kind scan.',
          ),
          400: E[400],
          401: E[401],
          402: error('Insufficient credits.'),
          413: error('Body over 25 MB.'),
          502: error('Transcription failed.'),
          503: E[503],
        },
      },
    },
    '/voice/sessions': {
      get: {
        operationId: 'listSessions',
        tags: ['sessions'],
        summary: "The calling key's sessions, newest first.",
        parameters: [
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: SESSIONS_LIMIT_MAX, default: SESSIONS_LIMIT_DEFAULT },
            description: 'Any other value becomes 50.',
          },
        ],
        responses: {
          200: json(success({ sessions: { type: 'array', items: ref('SessionRecord') } }, ['sessions']), 'Sessions.'),
          401: E[401],
        },
      },
    },
    '/voice/sessions/{id}': {
      get: {
        operationId: 'getSession',
        tags: ['sessions'],
        summary: 'One session, with the verdict rebuilt from the record (source `stored`). Free.',
        parameters: [{ name: 'id', in: 'path', required: true, schema: str }],
        responses: {
          200: json(
            success({ session: ref('SessionRecord'), verdict: ref('Verdict'), intel: ref('Intel') }, [
              'session',
              'verdict',
              'intel',
            ]),
            'The session.',
          ),
          401: E[401],
          404: E[404],
        },
      },
      delete: {
        operationId: 'deleteSession',
        tags: ['sessions'],
        summary:
          'Deletes one ended session of the calling key (record and transcript). Complaints it filed stay: the block list is built from them.',
        parameters: [{ name: 'id', in: 'path', required: true, schema: str }],
        responses: {
          200: json(success({ deleted: str }, ['deleted']), 'Deleted.'),
          401: E[401],
          404: E[404],
          409: error('The session is still live: delete it after it ends.'),
        },
      },
    },
    '/voice/numbers/{e164}': {
      get: {
        operationId: 'getNumber',
        tags: ['numbers'],
        summary: 'Whether a number is reported (complaints filed). Free.',
        parameters: [
          { name: 'e164', in: 'path', required: true, schema: str, description: 'URL-encoded, e.g. %2B15125550100.' },
        ],
        responses: {
          200: json(
            success(numberStatus.properties as Record<string, Schema>, numberStatus.required as string[]),
            'The number.',
          ),
          400: E[400],
          401: E[401],
        },
      },
    },
    '/voice/numbers': {
      get: {
        operationId: 'listReportedNumbers',
        tags: ['numbers'],
        summary: 'Feed of reported numbers whose latest complaint is after `since`, oldest change first.',
        parameters: [
          { name: 'reported', in: 'query', schema: { enum: ['true'] } },
          { name: 'since', in: 'query', schema: dateTime },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
        ],
        responses: {
          200: json(
            success(
              {
                numbers: { type: 'array', items: ref('NumberStatus') },
                since: dateTime,
                limit: int,
                next_since: dateTime,
              },
              ['numbers', 'since', 'limit'],
            ),
            'A page of the feed.',
          ),
          400: E[400],
          401: E[401],
        },
      },
    },
    '/domains/{id}': {
      put: {
        operationId: 'putDomain',
        tags: ['domains'],
        summary: 'Create or replace a SIP-firewall domain.',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9.-]{1,253}$' } },
        ],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  spam_action: { enum: ['decline', 'honeypot'] },
                  forward_uri: str,
                  persona: str,
                  webhook: str,
                },
              },
            },
          },
        },
        responses: {
          200: json(success({ domain: ref('Domain') }, ['domain']), 'The domain.'),
          400: E[400],
          401: E[401],
          409: error('Registered to another key.'),
        },
      },
      get: {
        operationId: 'getDomain',
        tags: ['domains'],
        summary: 'A domain as the PUT returns it.',
        parameters: [{ name: 'id', in: 'path', required: true, schema: str }],
        responses: {
          200: json(success({ domain: ref('Domain') }, ['domain']), 'The domain.'),
          400: E[400],
          401: E[401],
          404: E[404],
        },
      },
    },
    '/voice/filter/vendor-a-xml': {
      post: vendorXml('postFilterVendorAXml', 'Vendor A voice URL: stream to the filter and dial `forward`.'),
      get: vendorXml('getFilterVendorAXml', 'As POST.'),
    },
    '/voice/filter/vendor-b-xml': {
      post: vendorXml('postFilterVendorBXml', 'Vendor B voice URL: stream to the filter and dial `forward`.'),
      get: vendorXml('getFilterVendorBXml', 'As POST.'),
    },
    '/voice/honeypot/vendor-a-xml': {
      post: vendorXml('postHoneypotVendorAXml', 'Vendor A: hand the call to the honeypot.'),
      get: vendorXml('getHoneypotVendorAXml', 'As POST.'),
    },
    '/voice/honeypot/vendor-b-xml': {
      post: vendorXml('postHoneypotVendorBXml', 'Vendor B: hand the call to the honeypot.'),
      get: vendorXml('getHoneypotVendorBXml', 'As POST.'),
    },
    '/voice/openapi.json': {
      get: {
        operationId: 'getOpenApi',
        tags: ['discovery'],
        summary: 'This document. No key.',
        security: [],
        responses: { 200: json({ type: 'object', required: ['openapi', 'paths'] }, 'OpenAPI 3.1.') },
      },
    },
    '/console': {
      get: {
        operationId: 'getConsolePage',
        tags: ['console'],
        summary: 'The operator console page (static; it asks for the key). Live feed: WebSocket /console/stream?key=.',
        security: [],
        responses: { 200: { description: 'HTML.', content: { 'text/html': { schema: str } } } },
      },
    },
    '/console/app.js': {
      get: {
        operationId: 'getConsoleScript',
        tags: ['console'],
        summary: "The console's script.",
        security: [],
        responses: { 200: { description: 'JavaScript module.', content: { 'text/javascript': { schema: str } } } },
      },
    },
    '/console/tuning': {
      get: {
        operationId: 'getConsoleTuning',
        tags: ['console'],
        summary: 'The tuning knobs in force on this node (docs/tuning.md).',
        responses: {
          200: json(
            success({ tuning: { type: 'object', additionalProperties: { type: ['number', 'string'] } } }, ['tuning']),
            'Tuning.',
          ),
          401: E[401],
        },
      },
    },
  },
} as const;
