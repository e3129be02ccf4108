/*
 * Evidence cues for the embedded model: what a scam needs from the callee (payment that cannot be
 * traced, codes, remote control, secrecy), not how a call sounds. Each cue names the tactic it
 * shows. A cue inside a negated clause ("we will never ask for your code") does not count; the
 * assurance itself is a cue of its own, which honest institutions give and scammers rarely do.
 */
import type { Tactic } from '../../../domain/tactics.js';
import { PatternSet } from '../../../util/pattern-set.js';

export interface Cue {
  name: string;
  tactic?: Tactic;
  pattern: RegExp;
  /** False for cues whose meaning a negation does not flip (threats: "if you do not pay"). */
  negatable: boolean;
  /**
   * `topic` cues say what a call is about (a government agency, student loans, "press 1"), which honest
   * calls share; training regularises them like words so that only evidence can carry a verdict.
   * `marker` cues are no feature at all: they name a tactic once a call is flagged on other grounds.
   * "Press 1" is one: every robocall in the data says it, and so does every pharmacy reminder.
   */
  kind: 'evidence' | 'topic' | 'marker';
}

const cue = (name: string, pattern: RegExp, tactic?: Tactic, negatable = true): Cue => ({
  name,
  pattern,
  tactic,
  negatable,
  kind: 'evidence',
});
const topic = (name: string, pattern: RegExp, tactic?: Tactic): Cue => ({
  name,
  pattern,
  tactic,
  negatable: false,
  kind: 'topic',
});
const marker = (name: string, pattern: RegExp, tactic: Tactic): Cue => ({
  name,
  pattern,
  tactic,
  negatable: false,
  kind: 'marker',
});

export const CUES: readonly Cue[] = [
  cue(
    'gift_card',
    // Payment by gift card, not a gift card: friends buy them as presents and shops sell them.
    /\b(?:(?:buy|purchase|get|pick up|send|pay|paid|payment|by|in the form of)\b[^.?!]{0,40}\bgift ?cards?|gift ?cards?\b[^.?!]{0,40}\b(?:numbers?|codes?|pins?|back of)|(?:itunes|google play|steam|ebay|vanilla)(?: gift)? (?:cards?|codes?)|vanilla visa|card'?s? (?:pin|claim code))\b/,
    'untraceable_payment',
  ),
  cue(
    'crypto',
    /\b(?:bitcoin|crypto(?:currency|currencies)?|btc|ethereum|usdt|tether|coinbase|crypto atm|bitcoin atm|wallet address)\b/,
    'untraceable_payment',
  ),
  cue(
    'wire_cash',
    /\b(?:wire (?:the )?(?:money|funds|transfer)|western union|moneygram|money ?order|send (?:the )?cash|cash in (?:an|a) envelope|courier (?:will )?(?:pick|collect)|zelle|cash ?app|venmo|prepaid (?:debit )?card)\b/,
    'untraceable_payment',
  ),
  cue(
    'remote_tool',
    /\b(?:anydesk|any desk|teamviewer|team viewer|ultraviewer|logmein|supremo|quick ?support|remote (?:access|desktop|session|support)|remote(?:ly)? control (?:of |over )?(?:your|the) (?:computer|pc|laptop|screen|device)|screen ?shar(?:e|ing)|download (?:an?|the|this) (?:app|application|software|program))\b/,
    'remote_access',
  ),
  cue(
    'otp',
    /\b(?:one[- ]time (?:code|passcode|password|pin)|verification code|security code|confirmation code|authori[sz]ation code|(?:the|that) code (?:we|i|you) (?:just )?(?:sent|texted|received|got)|read (?:me |back )?(?:the|that) code|(?:six|6)[- ]digit (?:code|number|pin)|text(?:ed)? (?:you )?a code)\b/,
    'otp_request',
  ),
  cue(
    'pii',
    /\b(?:(?:give|provide|confirm|verify|read|tell|need|have|spell|update) (?:me |us )?(?:with )?(?:your |the )(?:full )?(?:social security number|ssn|social|date of birth|mother'?s maiden name|(?:credit |debit )?card number|account number|routing number|online banking (?:password|login)|password|pin|medicare (?:number|id))|(?:what(?:'s| is) your) (?:social security number|ssn|date of birth|card number|account number|password|pin))\b/,
    'pii_harvest',
  ),
  topic(
    'pii_mention',
    /\b(?:social security number|ssn|date of birth|mother'?s maiden name|card number|account number|routing number)\b/,
    'pii_harvest',
  ),
  cue(
    'verify_identity',
    /\b(?:verify (?:your )?(?:identity|information|account|details)|confirm your (?:identity|information|details|social|name and address))\b/,
    'pii_harvest',
  ),
  cue(
    'arrest',
    /\b(?:warrant (?:for|out for|issued|has been issued)|arrest warrant|(?:will|would|going to|gonna) (?:be )?(?:arrest(?:ed)?|taken into custody|sued|prosecuted|jailed)|police (?:will|are going to|officers will) (?:come|be|visit)|legal (?:action|consequences|proceedings)|lawsuit (?:has been|was|is being) filed|(?:case|complaint) (?:has been )?filed against you|criminal (?:charges?|case) against you|face (?:criminal )?charges|deport(?:ed|ation))\b/,
    'threat',
    false,
  ),
  cue(
    'suspend',
    /\b(?:(?:account|card|benefits|number|license|service|social security number|ssn)(?: \w+){0,3} (?:has been |is |will be |was )?(?:suspended|frozen|blocked|revoked|deactivated|terminated)|(?:suspend|freeze|block|revoke|seize|cancel|terminate) your (?:account|card|benefits|number|license|assets|service)|(?:will be |be )?disconnect(?:ed)? (?:today|within|in \d+|immediately)|(?:shut|cut) off (?:your|the) (?:power|service|electricity|gas|water))\b/,
    'threat',
    false,
  ),
  cue(
    'urgency',
    /\b(?:(?:pay|act|call|press|send|buy|go|do it) (?:\w+ )?(?:right now|immediately|right away)|urgent(?:ly)? (?:action|matter|notice|attention|legal|call|message|payment)|final (?:notice|warning|attempt|reminder)|last (?:chance|warning|notice)|within (?:the next )?(?:\d+|one|two|twenty[- ]four|24|48) (?:minutes?|hours?)|expires? today|act now|before it'?s too late|(?:don'?t|do not) hang up|time[- ]sensitive|before (?:the end of )?(?:today|tonight)|immediate(?:ly)? (?:action|attention|payment))\b/,
    'urgency',
    false,
  ),
  cue(
    'secrecy',
    /\b(?:(?:don'?t|do not) (?:tell|talk to|inform|discuss (?:this|it) with|mention (?:this|it) to) (?:anyone|anybody|your (?:bank|family|wife|husband|kids|children|son|daughter|parents|mom|dad)|the bank|bank staff|the teller|mom|dad)|do not disclose|keep (?:this|it) (?:confidential|secret|between us|private)|confidential (?:matter|case|investigation)|not (?:tell|inform) (?:anyone|anybody|your bank)|gag order)\b/,
    'secrecy',
    false,
  ),
  topic(
    'gov_authority',
    /\b(?:social security administration|social security office|ssa|irs|internal revenue|department of (?:justice|treasury|homeland security|revenue)|federal (?:agent|reserve|government|bureau|trade commission)|fbi|dea|customs and border|border protection|u\.?s\.? (?:marshals?|government|treasury)|legal department|embassy|consulate|immigration)\b/,
    'authority_impersonation',
  ),
  topic(
    'brand_security',
    /\b(?:amazon|apple|microsoft|windows|paypal|geek squad|norton|mcafee)\b[^.?!]{0,60}\b(?:security|fraud|suspicious|order|charge|account|support|department|refund)\b/,
    'authority_impersonation',
  ),
  topic(
    'bank_fraud_dept',
    /\b(?:fraud (?:department|prevention|team|alert|protection)|security department|card services|cardmember services|visa|mastercard)\b/,
    'authority_impersonation',
  ),
  cue(
    'prize',
    /\b(?:you(?:'ve| have)? (?:just )?(?:won(?!')|been (?:selected|chosen))|you(?:'re| are) (?:our|a|the) (?:lucky |grand )?(?:prize )?winner|congratulations[,!.]? you(?:'ve| have| are|'re)? (?:just )?(?:won|been|a winner|the winner|selected|qualif)|(?:claim|collect|receive|release) (?:your|the) (?:prize|winnings|reward|grant)|sweepstakes|grand prize|free (?:gift|cruise|vacation|trip|stay)|complimentary (?:stay|cruise|vacation)|grant money|you (?:are|have been) pre-?approved|guaranteed approval|(?:you )?(?:are |have )?qualif(?:y|ied) for|eligible (?:to receive|for) (?:a |our |your )?(?:free|special|members))\b/,
    'prize_lure',
  ),
  cue(
    'family',
    /\b(?:grandma|grandpa|grandson|granddaughter|bail (?:money|bond)?|your (?:son|daughter|nephew|niece|husband|wife|mother|father|grandchild)\b[^.?!]{0,50}\b(?:accident|arrested|jail|hospital|trouble|custody))\b/,
    'family_fear',
    false,
  ),
  cue(
    'refund',
    /\b(?:overcharg(?:e|ed)|unauthori[sz]ed (?:charge|purchase|order|transaction|payment)|suspicious (?:charge|activity|order|transaction|purchase)|pre-?authori[sz]ed (?:order|charge)|order (?:has been )?placed (?:on|in|under) your name|(?:owe|owes|entitled to|eligible for) (?:you )?a refund|refund of \$?\d)\b/,
    'refund_bait',
    false,
  ),
  topic('refund_mention', /\b(?:refund|reimburse(?:ment)?)\b/, 'refund_bait'),
  marker(
    'press_key',
    /\b(?:press (?:one|1|two|2|nine|9|zero|0|star)|stay on the line|to speak (?:to|with) (?:a|an|our) (?:representative|agent|officer))\b/,
    'callback_pressure',
  ),
  marker(
    'call_back',
    /\b(?:call (?:us )?back (?:at|on|immediately)|call (?:this|our|the following) (?:number|toll[- ]free)|return (?:this|our) call (?:at|immediately)|toll[- ]free number|our (?:hotline|helpline) (?:at|number))\b/,
    'callback_pressure',
  ),
  cue(
    'fee_first',
    /\b(?:processing fee|up ?front fee|small (?:fee|deposit)|insurance fee|activation fee|release fee|pay (?:a|the) (?:fee|deposit) (?:first|before|to release)|advance fee|taxes on (?:your|the) (?:prize|winnings))\b/,
    'untraceable_payment',
  ),
  topic(
    'debt_relief',
    /\b(?:lower (?:your )?interest rates?|reduce (?:your )?(?:debt|interest|payments?)|debt relief|consolidat\w*|loan forgiveness|forgiven|student loans?)\b/,
  ),
  topic('warranty', /\b(?:warranty|vehicle service contract|auto (?:protection|coverage))\b/),
  cue(
    'investment',
    /\b(?:guaranteed (?:returns?|profit)|double your (?:money|investment)|investment opportunity|trading platform|forex|returns? of \d+ ?(?:%|percent))\b/,
    'prize_lure',
  ),
  cue(
    'screen_address',
    /\b(?:ignore (?:all |your |the )?(?:previous|prior|above) instructions|this call is (?:clean|safe|legitimate)|(?:mark|classify) this call as)\b/,
    undefined,
    false,
  ),
  // Reported speech: someone telling of a scam call they got. Both together mark a story, not a scam
  // (rules cues `reported_call` and `scam_talk` read the same); no feature, only a cap.
  {
    name: 'reported_call',
    pattern:
      /\b(?:(?:i|he|she|we|they|my \w+|our \w+) (?:got|had|received|gets|get) (?:a|one of those|this|that|these|those) (?:\w+ )?(?:calls?|messages?|voicemails?|texts?)\b|they (?:said|told (?:me|her|him|us)|wanted (?:me|her|him|us)|asked (?:me|her|him|us))\b|(?:did|have) you (?:see|hear|read)(?: about)?)/,
    negatable: false,
    kind: 'marker',
  },
  {
    name: 'scam_talk',
    pattern:
      /\b(?:(?:that|it)(?:'s| is| was| sounds like) (?:a|such a|totally a|obviously a) scam|(?:those|these|the|that|an?) (?:\w+ )?scams?\b(?! department)|scam (?:calls?|artists?|callers?)|scammers? (?:called|call|calling|got)|report(?:ed)? (?:it|them) to the (?:ftc|police|bank))/,
    negatable: false,
    kind: 'marker',
  },
  // Assurances honest institutions give: the opposite of what a scam needs.
  cue(
    'never_ask',
    /\b(?:(?:will|would|do(?:es)?) never (?:ask|call|request|text|email)|never ask(?:s)? (?:you )?(?:for|to)|(?:do not|don't|never) (?:share|give|read) (?:this|that|the|your) (?:code|pin|password)(?: (?:with|to) anyone)?|(?:do not|don't|never) (?:share|give) (?:it|them) (?:with|to) anyone|we (?:do not|don't) accept (?:payment|gift cards))\b/,
    undefined,
    false,
  ),
  cue(
    'official_channel',
    /\b(?:number on the back of your (?:card|debit card|credit card)|call (?:the number|us) (?:on|printed on|listed on) (?:the back of )?your (?:card|statement|bill)|log (?:in|into) (?:your|the) (?:app|account) (?:yourself|directly)|hang up and call (?:us|your bank|the number)|(?:visit|go to|check) (?:our|the) official (?:website|site|app)|no (?:action|payment) (?:is )?(?:needed|required)|(?:you )?(?:do not|don't) need to (?:do anything|take any action|call us back)|(?:through|in) (?:our|the) official app)\b/,
    undefined,
    false,
  ),
];

export const CUE_NAMES: readonly string[] = CUES.map((c) => c.name);

/** Cues that speak for the callee's safety rather than against the caller. */
const ASSURANCES = new Set(['never_ask', 'official_channel']);

/**
 * Requests an honest caller practically never makes of a stranger: pay in gift cards, crypto or
 * cash by courier, install remote control, read back a code, hand over personal data, keep it
 * secret, pay a fee to get paid. One of them can carry a call to the filing band; any other single
 * cue (urgency, a threat, a prize, a topic) cannot.
 */
const DECISIVE: ReadonlySet<string> = new Set([
  'gift_card',
  'crypto',
  'wire_cash',
  'remote_tool',
  'otp',
  'pii',
  'secrecy',
  'fee_first',
  'family',
  'screen_address',
]);

export interface CueSummary {
  /** Distinct evidence or topic cues of a scam (not markers, not assurances). */
  count: number;
  /** At least one of them is decisive. */
  decisive: boolean;
  /** How many distinct decisive cues. */
  decisiveCount: number;
  /** How many distinct tactics those cues show (a cue without a tactic is a kind of its own). */
  kinds: number;
  /** The caller gave an honest institution's assurance ("we will never ask for your code"). */
  assured: boolean;
}

/** Someone telling of a scam call they got, rather than making one. */
export function isStory(hits: readonly CueHit[]): boolean {
  return hits.some((h) => h.cue.name === 'reported_call') && hits.some((h) => h.cue.name === 'scam_talk');
}

export function summariseCues(hits: readonly CueHit[]): CueSummary {
  const counted = new Map<string, Cue>();
  for (const h of hits) if (h.cue.kind !== 'marker' && !ASSURANCES.has(h.cue.name)) counted.set(h.cue.name, h.cue);
  const decisiveCount = [...counted.keys()].filter((n) => DECISIVE.has(n)).length;
  const kinds = new Set([...counted.values()].map((c) => c.tactic ?? c.name)).size;
  const assured = hits.some((h) => ASSURANCES.has(h.cue.name));
  return { count: counted.size, decisive: decisiveCount > 0, decisiveCount, kinds, assured };
}

const NEGATION = /\b(?:never|not|no|nobody|without|won't|don't|doesn't|didn't|can't|cannot|shouldn't|wouldn't)\b|n't\b/;
const CONDITIONAL = /\b(?:if|unless|otherwise|or else)\b/;

/** True when the clause before `index` (up to 50 characters back) is negated and not conditional. */
function negated(text: string, index: number): boolean {
  const window = text.slice(Math.max(0, index - 50), index);
  const clause = window.split(/[.;:!?,]|\b(?:but|however|because)\b/).pop() ?? '';
  return NEGATION.test(clause) && !CONDITIONAL.test(clause);
}

export interface CueHit {
  cue: Cue;
  /** Offset in the lower-cased text. */
  index: number;
}

/** Every cue hit in a text (lower-cased, apostrophes normalised by the caller), cue by cue, first to last. */
const ALL_CUES = new PatternSet(CUES.map((c) => c.pattern));

export function findCues(lower: string): CueHit[] {
  const scan = new CueScan();
  scan.update(lower);
  return scan.hits();
}

/**
 * How far from where it starts a cue's match attempt may read: the longest cue match and the character
 * after it (for the closing `\b`). A text's matches that begin further than this before its end stay what
 * they are when text is added after it (test/unit/llm/live-call.test.ts checks every cue against it).
 */
export const CUE_REACH = 256;

/**
 * `findCues` of a text that grows at its end (a running call's caller lines): each update scans only the
 * new text and the CUE_REACH characters before it, going on from the state the earlier scan had there.
 */
export class CueScan {
  /** Every match so far as `[cue, start, end]`, in the order found, and whether it counts (not negated). */
  private readonly found: Array<[number, number, number]> = [];
  private readonly counts: boolean[] = [];
  private scanned = 0;

  update(lower: string): void {
    const at = Math.max(0, this.scanned - CUE_REACH);
    let n = this.found.length;
    while (n > 0 && this.found[n - 1]![1] >= at) n--;
    this.found.length = n;
    this.counts.length = n;
    const resume = ALL_CUES.resumeAt(lower, at, this.found);
    const found = (i: number, start: number, end: number): void => {
      this.found.push([i, start, end]);
      this.counts.push(!(CUES[i]!.negatable && negated(lower, start)));
    };
    ALL_CUES.scan(lower, found, false, resume);
    this.scanned = lower.length;
  }

  /** What `findCues` gives for the text of the last update. */
  hits(): CueHit[] {
    const byCue: CueHit[][] = CUES.map(() => []);
    for (let k = 0; k < this.found.length; k++) {
      if (!this.counts[k]) continue;
      const [i, index] = this.found[k]!;
      byCue[i]!.push({ cue: CUES[i]!, index });
    }
    return byCue.flat();
  }
}
