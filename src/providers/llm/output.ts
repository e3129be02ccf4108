/*
 * Validation and repair of what a generative model returns.
 *
 * Models drift: a score of 1.2, "phishing" for "Phishing", a tactic nobody defined. What can be
 * repaired without guessing is repaired (clamp, case, unknown tactics dropped); what cannot
 * (no object, no numeric score, a category that matches nothing) is rejected so the session falls
 * back on its rules instead of carrying an invented value into a complaint.
 */
import { CATEGORIES, type VerdictCategory } from '../../domain/categories.js';
import { INTEL_LIST_FIELDS, type Intel } from '../../domain/intel.js';
import { clampScore } from '../../domain/levels.js';
import { SUMMARY_MAX_SENTENCES } from '../../domain/limits.js';
import { isE164 } from '../../domain/phone.js';
import { isTactic, type Tactic } from '../../domain/tactics.js';
import { limitSentences, type Assessment } from '../../domain/verdict.js';
import type { Analysis } from './types.js';

export class MalformedOutput extends Error {
  constructor(message: string) {
    super(`malformed model output: ${message}`);
    this.name = 'MalformedOutput';
  }
}

const MAX_SIGNALS = 8;
const MAX_SIGNAL_CHARS = 200;
const MAX_SUMMARY_CHARS = 400;
const MAX_INTEL_ITEMS = 20;

/** Squashes case, spacing and punctuation so near-misses of a category meet their exact string. */
function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '');
}
const BY_SQUASHED = new Map<string, VerdictCategory>(CATEGORIES.map((c) => [squash(c), c]));
const CLEAN_WORDS = new Set(['none', 'clean', 'null', 'nocategory', 'legitimate', 'notascam', 'na']);

export function repairCategory(value: unknown): VerdictCategory {
  if (value === null || value === undefined) return 'none';
  if (typeof value !== 'string') throw new MalformedOutput('category is not a string');
  const key = squash(value);
  if (key === '' || CLEAN_WORDS.has(key)) return 'none';
  const exact = BY_SQUASHED.get(key);
  if (exact) return exact;
  // "Reducing Your Debt" without its parenthesis, "Calls pretending to be government" cut short.
  const prefixed = CATEGORIES.filter((c) => key.length >= 8 && squash(c).startsWith(key));
  if (prefixed.length === 1) return prefixed[0]!;
  throw new MalformedOutput(`unknown category "${value.slice(0, 80)}"`);
}

export function repairTactics(value: unknown): Tactic[] {
  if (!Array.isArray(value)) return [];
  const out = new Set<Tactic>();
  for (const item of value) {
    if (typeof item !== 'string') continue;
    const key = item
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_');
    if (isTactic(key)) out.add(key);
  }
  return [...out];
}

function strings(value: unknown, maxItems: number, maxChars: number): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string') continue;
    const t = item.replace(/\s+/g, ' ').trim();
    if (t && !out.includes(t)) out.push(t.length > maxChars ? `${t.slice(0, maxChars - 1)}…` : t);
    if (out.length >= maxItems) break;
  }
  return out;
}

function repairScore(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new MalformedOutput('score is not a number');
  return clampScore(n);
}

/** Checks and repairs a model's assessment object. */
export function repairAssessment(raw: unknown): Assessment {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new MalformedOutput('expected a JSON object');
  const o = raw as Record<string, unknown>;
  const score = repairScore(o.score);
  const out: Assessment = {
    score,
    category: repairCategory(o.category),
    tactics: repairTactics(o.tactics),
    signals: strings(o.signals, MAX_SIGNALS, MAX_SIGNAL_CHARS),
  };
  if (typeof o.summary === 'string' && o.summary.trim()) {
    out.summary = limitSentences(o.summary.replace(/\s+/g, ' ').slice(0, MAX_SUMMARY_CHARS), SUMMARY_MAX_SENTENCES);
  }
  return out;
}

/** Intel as the model reported it, reduced to the spec's fields; callback numbers must be E.164. */
export function repairIntel(raw: unknown): Intel {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const o = raw as Record<string, unknown>;
  const out: Intel = {};
  for (const field of INTEL_LIST_FIELDS) {
    let values = strings(o[field], MAX_INTEL_ITEMS, field === 'scripts' ? 300 : 120);
    if (field === 'callback_numbers') values = values.map((v) => v.replace(/[^\d+]/g, '')).filter(isE164);
    if (values.length) out[field] = values;
  }
  return out;
}

export function repairAnalysis(raw: unknown): Analysis {
  const assessment = repairAssessment(raw);
  return { ...assessment, intel: repairIntel((raw as Record<string, unknown>).intel) };
}

/**
 * Finds the JSON object in a free-text reply: a bare object, a fenced block, or the first balanced
 * `{…}` in prose. Throws MalformedOutput when there is none.
 */
export function extractJson(text: string): unknown {
  const trimmed = text.trim();
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(trimmed);
  const candidates = [trimmed, fenced?.[1]?.trim(), balancedObject(trimmed)];
  for (const c of candidates) {
    if (!c) continue;
    try {
      return JSON.parse(c);
    } catch {
      /* try the next shape */
    }
  }
  throw new MalformedOutput('no JSON object in the reply');
}

function balancedObject(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}
