import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type LabelValues } from 'prom-client';

/**
 * Every metric the node exports, defined once. Code increments these directly; `GET /metrics`
 * (or the separate metrics port) renders the registry. Labels stay low-cardinality: never ids or numbers.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
// prom-client exports these sums as gauges named `_total`, which Prometheus reserves for counters
// (`promtool check metrics` rejects them); the by-type gauges they sum stay.
for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
  registry.removeSingleMetric(name);

/** Durations are exported in seconds (Prometheus base units). */
const seconds = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 20];

/**
 * A seconds histogram that callers feed in milliseconds: they time with `performance.now()`, and
 * converting here keeps every call site from having to remember the unit.
 */
class FedInMs<T extends string> {
  constructor(readonly histogram: Histogram<T>) {}
  observe(labelsOrMs: LabelValues<T> | number, ms?: number): void {
    if (typeof labelsOrMs === 'number') this.histogram.observe(labelsOrMs / 1000);
    else this.histogram.observe(labelsOrMs, (ms ?? 0) / 1000);
  }
}

/**
 * Inbound frame counts. Every 20 ms of every call adds to these, so they are plain numbers (a labelled
 * prom-client increment costs ~0.2 µs) and reach their counters only when the registry is scraped.
 */
export const frameTally = { audio: 0, text: 0, dtmf: 0, stop: 0, audioBytes: 0 };
const FRAME_KINDS = ['audio', 'text', 'dtmf', 'stop'] as const;

export const metrics = {
  liveSessions: new Gauge({
    name: 'voice_live_sessions',
    help: 'Live sessions on this node',
    labelNames: ['kind', 'protocol'] as const,
    registers: [registry],
  }),
  framesIn: new Counter({
    name: 'voice_frames_in_total',
    help: 'Inbound frames',
    labelNames: ['kind'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const kind of FRAME_KINDS) this.inc({ kind }, frameTally[kind]);
    },
  }),
  bytesIn: new Counter({
    name: 'voice_audio_bytes_in_total',
    help: 'Inbound audio bytes',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(frameTally.audioBytes);
    },
  }),
  eventsOut: new Counter({
    name: 'voice_events_total',
    help: 'Events emitted',
    labelNames: ['type'] as const,
    registers: [registry],
  }),
  verdicts: new Counter({
    name: 'voice_verdicts_total',
    help: 'Verdict events by level',
    labelNames: ['level', 'source'] as const,
    registers: [registry],
  }),
  webhookPosts: new Counter({
    name: 'voice_webhook_posts_total',
    help: 'Webhook posts by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  }),
  webhookLatency: new FedInMs(
    new Histogram({
      name: 'voice_webhook_latency_seconds',
      help: 'Webhook post latency',
      buckets: seconds,
      registers: [registry],
    }),
  ),
  providerCalls: new Counter({
    name: 'voice_provider_calls_total',
    help: 'Provider calls by provider, operation and outcome',
    labelNames: ['provider', 'op', 'outcome'] as const,
    registers: [registry],
  }),
  analyses: new Counter({
    name: 'voice_analyses_total',
    help: 'Whole-call analyses (scans, ended live calls) by where they ran: an analysis worker, or the main thread',
    labelNames: ['on'] as const,
    registers: [registry],
  }),
  providerLatency: new FedInMs(
    new Histogram({
      name: 'voice_provider_latency_seconds',
      help: 'Provider call latency',
      labelNames: ['provider', 'op'] as const,
      buckets: seconds,
      registers: [registry],
    }),
  ),
  utteranceToVerdict: new FedInMs(
    new Histogram({
      name: 'voice_utterance_to_verdict_seconds',
      help: 'Time from a final utterance to its verdict event',
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1],
      registers: [registry],
    }),
  ),
  creditsCharged: new Counter({
    name: 'voice_credits_charged_total',
    help: 'Credits debited',
    labelNames: ['product'] as const,
    registers: [registry],
  }),
  complaintsFiled: new Counter({
    name: 'voice_complaints_filed_total',
    help: 'Complaints filed',
    labelNames: ['product'] as const,
    registers: [registry],
  }),
  rejected: new Counter({
    name: 'voice_rejected_total',
    help: 'Requests or upgrades refused for capacity (503) or rate (429)',
    labelNames: ['status', 'entry'] as const,
    registers: [registry],
  }),
  sttCalls: new Gauge({
    name: 'voice_stt_calls',
    help: "Calls the node's own recogniser is transcribing now (holding a slot)",
    registers: [registry],
  }),
  sttCallLimit: new Gauge({
    name: 'voice_stt_call_limit',
    help: "Calls the node's own recogniser transcribes at once (VOICE_STT_MAX_CALLS)",
    registers: [registry],
  }),
  sttRefused: new Counter({
    name: 'voice_stt_refused_total',
    help: "Calls (live) or recordings (scan) the node's recogniser could not take",
    labelNames: ['entry'] as const,
    registers: [registry],
  }),
  sttDecodersBusy: new Gauge({
    name: 'voice_stt_decoders_busy',
    help: 'Recogniser processes decoding an utterance now',
    registers: [registry],
  }),
  httpRequests: new Counter({
    name: 'voice_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['route', 'status'] as const,
    registers: [registry],
  }),
  scanBodies: new Counter({
    name: 'voice_scan_bodies_total',
    help: 'POST /scan bodies read, by where: on the body worker (large bodies) or on the main thread',
    labelNames: ['on'] as const,
    registers: [registry],
  }),
  httpDuration: new Histogram({
    name: 'voice_http_request_duration_seconds',
    help: 'HTTP request duration, from its arrival to its answer, by route and status',
    labelNames: ['route', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  }),
};
