import type { Protocol, SessionEvent } from '../domain/events.js';
import type { AudioFormat, Frame, OutboundFrame } from '../domain/frames.js';

/** What a transport learns from its start message, before the session exists. */
export interface StartInfo {
  callId?: string;
  from?: string;
  to?: string;
  audio: AudioFormat;
  /** Option values carried by the start message (raw `params`, vendor custom parameters). Win over URL options. */
  params: Record<string, string>;
  /** Vendor stream id, kept to address outbound messages. */
  streamId?: string;
  /** Tracks the vendor says it sends (informational). */
  tracks?: string[];
}

export type Decoded =
  | { type: 'start'; info: StartInfo }
  | { type: 'frame'; frame: Frame }
  /** Connected/mark echoes and unknown messages: ignored, never an error. */
  | { type: 'ignore' }
  /** A start message that cannot start a session: the socket closes with no events. */
  | { type: 'reject'; reason: string };

export interface WireMessage {
  data: string | Uint8Array;
  binary: boolean;
  /** Persona audio (binary, or a vendor's JSON media message): what a congested socket sheds first. */
  audio?: boolean;
}

/**
 * Turns one protocol's wire messages into typed frames and back (after pipecat's serializers).
 * One instance per socket: vendor serializers remember the stream id once started.
 */
export interface Serializer {
  readonly protocol: Protocol;
  decodeText(text: string): Decoded;
  decodeBinary(data: Uint8Array): Decoded;
  /** Event to the socket, or null when this protocol must not receive events (vendor A's filter socket). */
  encodeEvent(event: SessionEvent): WireMessage | null;
  /** Honeypot output to the socket, or null when the protocol has no way to carry it. */
  encodeOutbound(frame: OutboundFrame): WireMessage | null;
}
