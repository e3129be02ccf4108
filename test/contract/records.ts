import { randomUUID } from 'node:crypto';
import type { StoredSession } from '../../src/domain/session.js';
import type { Complaint, KeyRecord } from '../../src/store/types.js';

/** Builders for store records; every call gets fresh ids so tests never collide in a shared database. */
export function aKey(credits: number, over: Partial<KeyRecord> = {}): KeyRecord {
  const id = randomUUID();
  return { id, hash: `hash-${id}`, label: 'test key', credits, created_at: '2026-01-01T00:00:00.000Z', ...over };
}

export function aSession(keyId: string, over: Partial<StoredSession> = {}): StoredSession {
  return {
    id: randomUUID(),
    kind: 'filter',
    protocol: 'raw',
    from: '+15550001111',
    started_at: '2026-01-01T10:00:00.000Z',
    turns: 2,
    transcript: 'caller: this is the tax office\ncaller: pay with gift cards',
    score: 0.91,
    level: 'scam',
    category: 'Tax Collection',
    summary: 'Tax imposter asking for gift cards.',
    intel_count: 2,
    reported: false,
    key_id: keyId,
    state: 'open',
    node_id: 'node-a',
    tactics: ['authority_impersonation', 'untraceable_payment'],
    signals: ['gift card payment demanded'],
    intel: { gift_card_brands: ['Target'], callback_numbers: ['+15559990000'], dtmf: '12#' },
    reported_numbers: 0,
    ...over,
  };
}

export function aComplaint(number: string, over: Partial<Complaint> = {}): Complaint {
  return {
    id: randomUUID(),
    number,
    session_id: randomUUID(),
    key_id: 'key-1',
    subject: 'Tax Collection',
    comment: 'Tax imposter asking for gift cards.',
    filed_at: '2026-01-01T10:05:00.000Z',
    ...over,
  };
}

/** A phone number no other test uses, so aggregate queries see only this test's complaints. */
export function aNumber(): string {
  return `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
}
