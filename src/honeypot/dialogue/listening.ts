/*
 * Listening through a bad line. Over the phone the caller's words reach the persona through a
 * recogniser that drops and mangles words, numbers worst of all: a callback number comes out with
 * half its digits, a name as something no one is called. A person on a bad line says what they
 * caught and asks for the rest; these rules tell the persona when it heard only part of an answer.
 */
import type { Intel } from '../../domain/intel.js';
import { digitizeSpoken } from '../../rules/intel/spoken.js';
import type { AskField } from './phrases.js';

/** Fewer digits than any number worth filing (a US number has 10, a case number rarely fewer than 4). */
const MIN_WHOLE = 10;
/** Digit runs, allowing the separators a spoken number leaves ("two oh two, five five five"). */
const DIGIT_RUN = /\d(?:[\s,.-]{0,3}\d)*/g;

/**
 * The digits of a number the caller seems to have been giving but that came out short: the longest
 * run of 3 to 9 digits in their words (spoken digits count). Undefined when they gave no digits, or a
 * run long enough to be a whole phone number.
 */
export function partialNumber(callerText: string): string | undefined {
  const runs = [...digitizeSpoken(callerText).matchAll(DIGIT_RUN)].map((m) => m[0].replace(/\D/g, ''));
  if (!runs.length || runs.some((r) => r.length >= MIN_WHOLE)) return undefined;
  const best = runs.sort((a, b) => b.length - a.length)[0]!;
  return best.length >= 3 ? best : undefined;
}

/**
 * Whether digits given for a case or badge number may be all of it: references run from four digits
 * up, so the persona reads them back to be confirmed (a caller corrects a wrong one) rather than asking
 * for "the rest" of a number the caller said whole.
 */
export function mayBeWhole(caseDigits: string): boolean {
  return caseDigits.length >= 4;
}

/**
 * Whether the caller answered at all: a few words, not a one-word "yes" or "hello". The persona takes
 * an answer that yielded nothing it could note as a line that garbled it, not as a refusal.
 */
export function saidSomething(callerText: string): boolean {
  return callerText.split(/\s+/).filter((w) => /[a-z0-9]/i.test(w)).length >= 3;
}

const NUMBER_CONTEXT = /\b(number|call|line|badge|case|reference|extension|phone)\b/i;
const CASE_CONTEXT = /\b(badge|case|reference|employee|id)\b/i;

/**
 * The field whose answer the line garbled, and the digits that got through: the persona asked for a
 * field the caller then answered in words that yielded nothing (`understood`: they pushed something or
 * gave other intel instead, so the line did carry words), or the caller gave a number (asked or not)
 * of which only part came through. Not for a field in `notAgain` (asked again once already, or asked as
 * often as the caller will stand).
 */
export function misheard(
  caller: string,
  intel: Intel,
  askedLast: AskField | undefined,
  notAgain: ReadonlySet<AskField>,
  understood = false,
): { field: AskField; partial?: string } | undefined {
  if (!saidSomething(caller)) return undefined;
  const partial = partialNumber(caller);
  const numberField: AskField | undefined =
    askedLast === 'callback_numbers' || askedLast === 'case_numbers'
      ? askedLast
      : partial && NUMBER_CONTEXT.test(caller) && !/\b(dollars?|pounds?|bucks)\b/i.test(caller)
        ? CASE_CONTEXT.test(caller)
          ? 'case_numbers'
          : 'callback_numbers'
        : undefined;
  if (numberField && partial && !hasField(intel, numberField) && !notAgain.has(numberField))
    return { field: numberField, partial };
  if (!understood && askedLast && !hasField(intel, askedLast) && !notAgain.has(askedLast)) return { field: askedLast };
  return undefined;
}

/** Whether the caller already gave the field (any rail counts as the payment). */
export function hasField(intel: Intel, field: AskField): boolean {
  if (field === 'payment')
    return Boolean(intel.gift_card_brands?.length || intel.payment_apps?.length || intel.crypto_wallets?.length);
  return Boolean(intel[field]?.length);
}
