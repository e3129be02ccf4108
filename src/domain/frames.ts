/** What flows into a session graph, whatever the transport. Transports turn wire messages into these. */
export type Track = 'inbound' | 'outbound';
export type AudioEncoding = 'pcm16' | 'mulaw' | 'alaw';

export interface AudioFormat {
  encoding: AudioEncoding;
  sampleRate: number;
}

export interface AudioFrame {
  kind: 'audio';
  track: Track;
  /** Raw bytes in the session's declared encoding; the decode operator turns them into PCM. */
  data: Uint8Array;
}

export interface TextFrame {
  kind: 'text';
  track: Track;
  text: string;
  /** false marks an interim result: neither scored nor stored. */
  final: boolean;
  endOfTurn: boolean;
}

export interface DtmfFrame {
  kind: 'dtmf';
  digit: string;
}

export type EndReason = 'stop' | 'closed' | 'credits' | 'time_limit' | 'hangup' | 'shutdown' | 'error';

export interface StopFrame {
  kind: 'stop';
  reason: EndReason;
}

export type Frame = AudioFrame | TextFrame | DtmfFrame | StopFrame;

/** Who said a line. `persona` lines carry the persona's name as their speaker label. */
export type Role = 'caller' | 'callee' | 'persona';

/** One final line of the transcript, from speech or from client text. */
export interface Utterance {
  role: Role;
  speaker: string;
  text: string;
  /** Scheduler time (ms) at which the line became final. */
  at: number;
}

/** Outbound control from the honeypot graph to the transport (vendor-aware serializers encode it). */
export type OutboundFrame =
  { kind: 'audio'; data: Uint8Array } | { kind: 'clear' } | { kind: 'mark'; name: string } | { kind: 'hangup' };
