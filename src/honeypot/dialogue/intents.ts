/*
 * What the caller is pushing for in their last turn. The persona reacts to the push (without ever
 * complying for real) before it asks for the next piece of intel.
 */
export type CallerIntent =
  | 'card'
  | 'ssn'
  | 'bank'
  | 'otp'
  | 'install'
  | 'computer'
  | 'gift_card'
  | 'pay'
  | 'personal'
  | 'threat'
  | 'secret'
  | 'urgent'
  | 'presence'
  | 'confirm'
  | 'identity';

/** In priority order: the first match is the one the persona answers. */
const PATTERNS: ReadonlyArray<[CallerIntent, RegExp]> = [
  [
    'otp',
    /\b(verification|security|one[- ]time|confirmation|access)\s+code\b|\bcode\b.{0,30}\b(sent|text(ed)?|receive[d]?)\b|\b(otp|pin)\b/i,
  ],
  [
    'card',
    /\b(card\s+number|credit\s+card|debit\s+card|card\s+details|expir(y|ation)|cvv|numbers?\s+on\s+the\s+(front|back))\b/i,
  ],
  ['ssn', /\b(social\s+security|ssn|national\s+insurance|tax\s+id)\b/i],
  ['bank', /\b(bank\s+account|account\s+number|routing|sort\s+code|online\s+banking|log\s*in|password|username)\b/i],
  ['gift_card', /\b(gift\s*cards?|itunes|google\s+play|steam|apple\s+cards?|target\s+cards?|scratch)\b/i],
  [
    'install',
    /\b(download|install|anydesk|teamviewer|ultraviewer|supremo|remote|www\.|dot\s+com|website|browser|type\s+in|windows\s+key)\b/i,
  ],
  [
    'pay',
    /\b(pay|payment|wire|transfer|bitcoin|crypto|zelle|venmo|cash\s*app|paypal|western\s+union|money\s*gram|money\s+order|fee|deposit|send\s+(the\s+)?money)\b/i,
  ],
  [
    'personal',
    /\b(date\s+of\s+birth|birthday|your\s+(full\s+)?(name|address)|maiden\s+name|verify\s+your\s+identity|confirm\s+your\s+(name|address|identity))\b/i,
  ],
  ['computer', /\b(computer|laptop|screen|pc|mouse|keyboard)\b/i],
  [
    'threat',
    /\b(arrest(ed)?|police|warrant|lawsuit|sue|jail|prison|suspend(ed)?|legal\s+action|deport|court|frozen|locked)\b/i,
  ],
  ['secret', /\b(don'?t|do\s+not)\s+tell\b|\bkeep\s+(this|it)\s+(quiet|secret|between)|\bconfidential\b/i],
  ['urgent', /\b(right\s+now|immediately|today|hurry|quickly|urgent|before\s+it'?s\s+too\s+late|last\s+chance)\b/i],
  ['presence', /\b(are\s+you\s+(still\s+)?there|hello\?|can\s+you\s+hear\s+me)\b/i],
  ['identity', /\b(my\s+name\s+is|this\s+is\s+\w+|i'?m\s+calling\s+from|calling\s+(from|on\s+behalf))\b/i],
  ['confirm', /\b(do\s+you\s+understand|are\s+you\s+ready|ok(ay)?\?|are\s+you\s+with\s+me|did\s+you\s+(get|write))\b/i],
];

export function callerIntents(text: string): CallerIntent[] {
  return PATTERNS.filter(([, re]) => re.test(text)).map(([intent]) => intent);
}
