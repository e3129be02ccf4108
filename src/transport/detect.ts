import type { Protocol, SessionEvent, SessionKind } from '../domain/events.js';
import type { OutboundFrame } from '../domain/frames.js';
import { RawSerializer } from './raw.js';
import type { Decoded, Serializer, WireMessage } from './types.js';
import { VendorASerializer, looksLikeVendorAStart } from './vendor-a.js';
import { VendorBSerializer, looksLikeVendorBStart } from './vendor-b.js';
import { parseObject, type JsonObject } from './wire.js';

function vendorFor(msg: JsonObject, product: SessionKind): Serializer | null {
  if (looksLikeVendorAStart(msg)) return new VendorASerializer(product);
  if (looksLikeVendorBStart(msg)) return new VendorBSerializer(product);
  return null;
}

/**
 * A vendor socket that has only said `connected`. Both vendors send one before `start`, and only
 * the start event tells them apart for sure, so the choice waits for it. Until then nothing is
 * written to the socket (neither vendor wants unsolicited messages).
 */
export class PendingVendorSerializer implements Serializer {
  private decided: Serializer | null = null;

  constructor(
    private readonly product: SessionKind,
    /** What the `connected` frame suggested; reported until the start event decides. */
    private readonly hint: Protocol,
  ) {}

  get protocol(): Protocol {
    return this.decided?.protocol ?? this.hint;
  }

  decodeText(text: string): Decoded {
    if (this.decided) return this.decided.decodeText(text);
    const msg = parseObject(text);
    if (!msg || msg.event !== 'start') return { type: 'ignore' };
    const chosen = vendorFor(msg, this.product);
    if (!chosen) return { type: 'reject', reason: 'start event of an unknown vendor protocol' };
    this.decided = chosen;
    return chosen.decodeText(text);
  }

  decodeBinary(data: Uint8Array): Decoded {
    return this.decided ? this.decided.decodeBinary(data) : { type: 'ignore' };
  }

  encodeEvent(event: SessionEvent): WireMessage | null {
    return this.decided ? this.decided.encodeEvent(event) : null;
  }

  encodeOutbound(frame: OutboundFrame): WireMessage | null {
    return this.decided ? this.decided.encodeOutbound(frame) : null;
  }
}

/**
 * Picks the protocol of a media socket from its first text frame: the service's own
 * `{"type":"start"}`, or a vendor's `connected`/`start` event. Returns null when the frame says
 * nothing about the protocol (not JSON, or an unrelated message): the caller keeps waiting for
 * the next text frame until the start timeout. The returned serializer has not yet seen
 * `firstText`: pass the same text to its `decodeText`.
 */
export function detectSerializer(firstText: string, product: SessionKind): Serializer | null {
  const msg = parseObject(firstText);
  if (!msg) return null;
  if (msg.type === 'start') return new RawSerializer();
  if (msg.event === 'start') return vendorFor(msg, product);
  if (msg.event === 'connected') {
    // Vendor A says protocol "Call"; vendor B sends a version (and maybe its auth token) only.
    return new PendingVendorSerializer(product, msg.protocol === 'Call' ? 'vendor_a' : 'vendor_b');
  }
  return null;
}
