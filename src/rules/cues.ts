import type { Category } from '../domain/categories.js';
import type { Tactic } from '../domain/tactics.js';

/**
 * Evidence the rules look for. Each cue is one kind of evidence, worth `weight` in log-odds when it is
 * present at least once (repeating a phrase is not more evidence). Cues are written as claims or requests
 * aimed at the listener ("your account will be suspended", "read me the code"), not as topics, because
 * honest people talk about taxes, banks and the police too.
 *
 * - `tactic`: the spec tactic this evidence shows.
 * - `votes`: how strongly it points at a complaint subject (used only to pick the category).
 * - `negatable`: the cue is a request or offer that a preceding "never"/"do not" turns around.
 * - `hint`: words, at least one of which every match contains (`word*` is a prefix). The engine runs the regex
 *   only around these words, which is what keeps a long call cheap to score; a test checks the promise.
 */
export interface Cue {
  id: string;
  re: RegExp;
  weight: number;
  tactic?: Tactic;
  votes?: Partial<Record<Category, number>>;
  negatable?: boolean;
  /** Cues that describe the same thing saturate together (as cues of one tactic do). Default: the tactic. */
  group?: string;
  hint: readonly string[];
}

const GOV = 'Calls pretending to be government, businesses, or family and friends' as const;
const DEBT = 'Reducing Your Debt (Credit Cards, Mortgage, Student Loans)' as const;

// Small building blocks, kept readable.
const YOUR = String.raw`(?:your|ur|you're|the)`;
const PRESS = String.raw`(?:press(?:ing)?|dial|push|hit)\s+(?:the\s+)?(?:number\s+)?(?:[0-9]|one|two|nine|zero)\b`;

export const CUES: readonly Cue[] = [
  // ── urgency ──────────────────────────────────────────────────────────────────────────────
  {
    id: 'urgent_deadline',
    tactic: 'urgency',
    weight: 0.7,
    re: /\b(?:within (?:the next )?(?:\d+|one|two|twenty[- ]four|forty[- ]eight|thirty)(?: (?:to|or) \d+)? (?:minutes?|hours?)|in (?:the next )?(?:\d+|thirty|twenty)(?: (?:to|or) \d+)? minutes|(?:immediately|right away|as soon as possible|urgent(?:ly)?|imperative|time[- ]sensitive|before it'?s too late)\b|(?:is |are )?(?:due|needed|required) (?:today|tonight|immediately|right now)\b)/i,
    hint: ['within', 'minutes', 'minute', 'immediately', 'away', 'soon', 'urgent*', 'imperative', 'sensitive', 'late', 'due', 'needed', 'required'],
  },
  {
    id: 'final_notice',
    tactic: 'urgency',
    weight: 0.9,
    re: /\b(?:final (?:notice|attempt|warning|courtesy call|call|reminder)|last (?:attempt|chance|notice|warning)|second attempt|(?:this|the) offer (?:expires|ends)|limited[- ]time offer|respond immediately|expires? (?:today|tonight|soon)|(?:is|are) about to (?:expire|lapse|be voided)|for the last time|will (?:expire|be voided?|be closed out)|close out your file)\b/i,
    hint: ['final', 'last', 'second', 'offer', 'limited', 'respond', 'expire*', 'void*', 'closed', 'lapse', 'close'],
  },
  {
    id: 'dont_hang_up',
    tactic: 'urgency',
    weight: 0.9,
    re: /\b(?:do not|don'?t) (?:hang up|disconnect the call|put me on hold|leave the line)\b|\bstay on the line with me\b/i,
    hint: ['hang', 'disconnect', 'hold', 'leave', 'stay'],
  },

  // ── secrecy ──────────────────────────────────────────────────────────────────────────────
  {
    id: 'keep_secret',
    tactic: 'secrecy',
    weight: 1.6,
    re: /\b(?:(?:do not|don'?t|never) (?:tell|inform|discuss (?:this|it) with|mention (?:this|it) to|let|talk to|speak (?:to|with)|contact|call) (?:anyone|anybody|(?:your|the) (?:bank|family|wife|husband|mom|mother|dad|father|parents|kids|children|son|daughter|lender|lenders|credit bureaus?|police|teller|cashier|store clerk)|mom|dad|grandma|grandpa)|(?:do not|don'?t) go (?:to|into) (?:the|your) (?:bank|branch)|keep (?:this|it|our conversation) (?:confidential|secret|between us|private|to yourself)|(?:this|it) is (?:strictly )?confidential|gag order|(?:if|when) (?:the )?(?:cashier|teller|clerk|bank) asks?)\b/i,
    hint: ['anyone', 'anybody', 'confidential', 'secret', 'between', 'private', 'yourself', 'gag', 'cashier', 'teller', 'clerk', 'bank', 'branch', 'family', 'wife', 'husband', 'mom', 'mother', 'dad', 'father', 'parents', 'kids', 'children', 'son', 'daughter', 'lender', 'lenders', 'bureau', 'bureaus', 'police', 'grandma', 'grandpa'],
  },

  // ── authority impersonation ─────────────────────────────────────────────────────────────
  {
    id: 'gov_agency',
    tactic: 'authority_impersonation',
    weight: 0.9,
    votes: { [GOV]: 1.5 },
    re: /\b(?:social security administration|(?:department|office) of (?:social security|justice|homeland security|the treasury|financial relief|legal affairs)|customs and border(?: protection)?|border patrol|homeland security|federal (?:bureau|reserve|trade commission|agent|officer|investigation|custody|criminal)|\bfbi\b|\bdea\b|drug enforcement|u\.?s\.? marshals?|sheriff'?s (?:office|department)|police department|(?:legal|enforcement) department|(?:chinese |the )?(?:embassy|consulate)|immigration (?:office|department|services)|state department|(?:supreme|district|federal) court|magistrate)\b/i,
    hint: ['social', 'department', 'office', 'customs', 'border', 'homeland', 'federal', 'fbi', 'dea', 'drug', 'marshal*', 'sheriff*', 'police', 'embassy', 'consulate', 'immigration', 'state', 'court', 'magistrate'],
  },
  {
    id: 'officer_title',
    tactic: 'authority_impersonation',
    weight: 0.8,
    votes: { [GOV]: 0.6 },
    re: /\b(?:(?:this is|i am|i'm|my name is|speak (?:with|to)(?: the)?(?: next available)?) (?:officer|agent|detective|sergeant|lieutenant|special agent|investigator|inspector|marshal|sheriff|deputy)|(?:badge|agent|officer) (?:number|id|no\.?)\s*(?:is\s*)?[a-z]{0,3}-?\d)/i,
    hint: ['officer', 'agent', 'detective', 'sergeant', 'lieutenant', 'investigator', 'inspector', 'marshal', 'sheriff', 'deputy', 'badge'],
  },
  {
    id: 'tax_authority',
    tactic: 'authority_impersonation',
    weight: 1.0,
    votes: { 'Tax Collection': 3 },
    re: /\b(?:internal revenue service|\birs\b|tax (?:department|authority|office|agency|enforcement)|revenue (?:agency|department)|(?:back|unpaid|delinquent|overdue) taxes|tax (?:debt|lien|evasion|fraud|arrears|relief program)|taxes (?:owed|you owe)|owe (?:the )?(?:irs|taxes)|tax return (?:has been|was) (?:flagged|audited))\b/i,
    hint: ['irs', 'internal', 'tax*', 'revenue'],
  },
  {
    id: 'ssn_suspended',
    tactic: 'threat',
    weight: 2.6,
    votes: { [GOV]: 3 },
    re: /\b(?:social security (?:number|no\.?|account|benefits?|card)?\s*(?:(?:has|have|is|was|are|will|would|is going to|are going to)\s+)?(?:(?:been|be|being|getting|got)\s+)?(?:suspended|blocked|cancell?ed|frozen|compromised|terminated|used (?:for|in)|flagged|revoked|misused)|(?:suspend(?:ing|ed)?|block(?:ing|ed)?|cancell?(?:ing|ed)?|freez(?:e|ing)|terminat(?:e|ing)) (?:your|the) social security|(?:fraudulent|suspicious|criminal|illegal) activit(?:y|ies) (?:on|with|against|related to|under) (?:your )?(?:social|ssn|name)|(?:legal|illegal|enforcement|criminal)(?: enforcement)? (?:actions?|information|case|complaint)s? (?:has been |have been |was |were |is |are )?(?:filed|taken|issued|registered) (?:against|on|under) your)/i,
    hint: ['social', 'activit*', 'legal', 'suspend*', 'block*', 'cancel*', 'freez*', 'terminat*'],
  },
  {
    id: 'bank_impersonation',
    tactic: 'authority_impersonation',
    weight: 0.6,
    votes: { 'Bank/Credit Card Company Imposter': 2.5 },
    re: /\b(?:(?:from|this is|calling from|on behalf of|(?:i'?m|this is|my name is) \w+(?: \w+)? with) (?:the )?(?:(?:fraud|security) (?:department|team|prevention|unit) (?:at|of|from) )?(?:your bank\b|the bank\b|(?:chase|wells fargo|bank of america|citi(?:bank)?|capital one|us bank|pnc|td bank|american express|amex|discover|visa|mastercard|navy federal|credit union)\b)|(?:from|this is|calling from|on behalf of) (?:the )?(?:cash app|paypal|venmo|zelle)\b|(?:chase|wells fargo|bank of america|citi(?:bank)?|capital one|us bank|pnc|td bank|american express|amex|discover|visa|mastercard|navy federal|credit union|cash app|paypal|venmo|zelle|bank|card) (?:fraud|security|card services|account services|support|member services)\b|your (?:visa|mastercard|debit card|credit card|bank|card) (?:account )?(?:has been|is|was) (?:locked|blocked|frozen|suspended|compromised|deactivated|closed))/i,
    hint: ['bank', 'chase', 'wells', 'citi*', 'capital', 'pnc', 'td', 'american', 'amex', 'discover', 'visa', 'mastercard', 'cash', 'cashapp', 'paypal', 'venmo', 'zelle', 'card'],
  },
  {
    id: 'business_impersonation',
    tactic: 'authority_impersonation',
    weight: 0.6,
    votes: { [GOV]: 1.6 },
    re: /\b(?:(?:from|with|this is|calling from|on behalf of|speak (?:to|with)) (?:the )?(?:amazon|apple|microsoft|google|walmart|ebay|best buy|geek squad|netflix|at&t|verizon|t-mobile|comcast|xfinity|spectrum|directv|direct tv|fedex|ups|usps|dhl|the post office|norton|mcafee)|(?:your|an?) (?:amazon|apple|icloud|microsoft|paypal|netflix|walmart|ebay|geek squad) (?:account|order|id|subscription|membership|prime)|amazon (?:customer|prime|security|support|order))/i,
    hint: ['amazon', 'apple', 'microsoft', 'google', 'walmart', 'ebay', 'buy', 'geek', 'netflix', 'at&t', 'verizon', 'mobile', 'comcast', 'xfinity', 'spectrum', 'direct*', 'directv', 'fedex', 'ups', 'usps', 'dhl', 'post', 'norton', 'mcafee', 'icloud', 'paypal'],
  },

  // ── alerts about the listener's accounts (the hook of most imposter calls) ─────────────
  {
    id: 'account_alert',
    group: 'alert',
    weight: 1.4,
    votes: { [GOV]: 0.5, 'Bank/Credit Card Company Imposter': 0.5 },
    re: /\b(?:(?:suspicious|unusual|unauthori[sz]ed|fraudulent|illegal|criminal) (?:activit(?:y|ies)|charges?|transactions?|purchases?|orders?|log-?ins?|access)(?: (?:on|in|from|with|related to|under|to|against) (?:your|the|ur) (?:account|name|card|computer|identity|financial|social))?|(?:order|purchase|payment|charge|transaction) (?:of [^.]{0,40}? )?(?:has been |was |is being |being )?(?:placed|made|ordered|charged|billed|authori[sz]ed|processed) (?:on|from|to|using|with|under|in) (?:your|ur) (?:name|account|card)|pre-?authori[sz]ed (?:order|purchase|payment|charge)|(?:order|purchase|charge|payment|transaction)[^.]{0,60}\b(?:using|on|from|to|with|in|attached to) your (?:\w+ )?(?:account|card)|(?:if you did not|if you didn'?t|if you do not|to cancel|to dispute)[^.]{0,30}\b(?:authori[sz]e|make|place|approve|recogni[sz]e|cancel|dispute) (?:this|the|your|that) (?:order|purchase|transaction|charge|payment)|(?:your|ur) (?:account|identity|computer|ip address|card) (?:has been|have been|was|is|got) (?:hacked|compromised|breached|stolen|hijacked|infected|locked|blocked|suspended|frozen|flagged)|(?:we have |we've )?(?:blocked|locked|frozen|suspended|put (?:a )?(?:hold|on hold)(?: to| on)?) (?:all )?(?:access to )?(?:your|this|the) (?:account|transaction|card)|someone (?:tried|has tried|is trying|attempted) to (?:send|transfer|withdraw|log ?in|access|use|open|take)|(?:charging|charged|billing|billed) you (?:\$|for)\s?\d)/i,
    hint: ['suspicious', 'unusual', 'unauthori*', 'fraudulent', 'illegal', 'criminal', 'order*', 'purchase*', 'payment*', 'charge*', 'transaction*', 'authori*', 'hacked', 'compromised', 'breached', 'stolen', 'hijacked', 'infected', 'locked', 'blocked', 'suspended', 'frozen', 'flagged', 'hold', 'someone', 'charging', 'billing', 'billed'],
  },
  {
    id: 'scare_instruction',
    group: 'alert',
    weight: 1.0,
    re: /\b(?:(?:do not|don'?t|please refrain from|refrain from|before) (?:using|use|access|accessing|log ?in(?:to)?|logging in(?:to)?|going online with) (?:any|your|the) (?:devices?|financial accounts?|accounts?|computer|cards?|online banking|bank accounts?)\b|until you (?:speak|talk) (?:with|to) (?:our|a|the) (?:\w+ )?(?:support|representative|agent|officer|specialist|advisor|department))/i,
    hint: ['using', 'use', 'access', 'accessing', 'log', 'login', 'logging', 'going', 'until'],
  },
  {
    id: 'dispute_prompt',
    group: 'alert',
    weight: 1.0,
    re: /\b(?:(?:if you did not|if you didn'?t|if you do not|if you don'?t)[^.]{0,30}\b(?:(?:authori[sz]e|approve|recogni[sz]e) (?:this|the|that|these|it)\b|(?:make|place|do) (?:this|the|that) (?:order|purchase|transaction|charge|payment))|(?:to|want to|like to|wish to) (?:stop (?:and|or) )?(?:(?:cancel|dispute) (?:this|the|your|that|it)|(?:stop|report) (?:this|the|that) (?:order|purchase|transaction|charge|payment))(?: (?:order|purchase|transaction|charge|payment))?|(?:not )?authori[sz]ed by you|\bto dispute\b|(?:to )?(?:authori[sz]e|approve) (?:this|the) (?:order|purchase|transaction|charge|payment))/i,
    hint: ['authorize', 'authorise', 'authorized', 'authorised', 'cancel', 'dispute', 'approve', 'recognize', 'recognise', 'order', 'purchase', 'transaction', 'charge', 'payment'],
  },

  {
    id: 'account_discount_bait',
    weight: 1.8,
    votes: { 'Calls pretending to be government, businesses, or family and friends': 1 },
    re: /\b(?:(?:your|ur) (?:existing |current )?(?:\w+ )?(?:and \w+ )?accounts? (?:is|are|has been|have been) (?:now )?qualified (?:for|to get) (?:up to )?\d+ ?(?:%|percent)|(?:qualified|eligible) for (?:up to )?\d+ ?(?:%|percent) (?:off|discount)|\d+ ?(?:%|percent) (?:off |discount )?(?:to|for) all (?:of )?(?:its|our|their) (?:existing )?customers)/i,
    hint: ['qualified', 'customers', 'eligible'],
  },

  // ── threats ──────────────────────────────────────────────────────────────────────────────
  {
    id: 'arrest_threat',
    tactic: 'threat',
    weight: 2.0,
    votes: { [GOV]: 1.2, 'Debt Collection': 0.4 },
    re: /\b(?:(?:you|u) (?:will|would|could|may|might|are going to|gonna) (?:be|get) (?:arrested|taken into (?:federal )?custody|detained|prosecuted|jailed|deported|sued|charged)|(?:arrest )?warrants? (?:has been |have been |was |is )?(?:issued )?(?:for|against|in|on|under) (?:your|ur) (?:name|arrest)|(?:warrants?|case|lawsuit|complaint|(?:legal |enforcement |illegal )+actions?|charges|allegations?) (?:has been |have been |was |were |is |are |will be |would be |is going to be )?(?:filed|issued|registered|initiated|pressed) (?:against|on|under|for) (?:your|ur|you)|taken? into (?:federal )?custody|(?:take|taking|initiate|file|pursue) (?:necessary )?(?:legal|enforcement|court) actions? (?:against|on) you|(?:arrest|prosecute|deport) you|(?:local )?(?:police|sheriff|officers?|cops|marshals?) (?:will|are going to|is going to|are on (?:the|their) way to) (?:come |be coming |show up |arrive )?[^.]{0,30}\b(?:arrest you|pick you up|take you|your (?:home|house|door|workplace|work|job|address|office))|(?:face|facing) (?:legal consequences|prosecution|jail|prison|criminal charges|arrest)|(?:federal criminal offen[cs]e)|court (?:summons|hearing) (?:against|for) you|(?:bank )?accounts? (?:will be|is going to be) (?:seized|frozen|garnished))/i,
    hint: ['legal', 'arrest*', 'custody', 'detained', 'prosecut*', 'jailed', 'deport*', 'sued', 'charged', 'warrant*', 'filed', 'issued', 'registered', 'initiated', 'pressed', 'police', 'sheriff*', 'officer*', 'cops', 'face', 'facing', 'criminal', 'court', 'seized', 'frozen', 'garnished'],
  },
  {
    id: 'service_cutoff',
    tactic: 'threat',
    weight: 1.4,
    votes: { Utility: 4 },
    re: /\b(?:(?:power|electricity|electric(?:al)? service|gas|water|service|lights?|utilities)\s+(?:will|is going to|is about to|are going to)\s+(?:be |get )?(?:disconnected|shut (?:off|down)|cut off|turned off|terminated|interrupted)|(?:interruption|disconnection|termination|shut-?off) of (?:your )?(?:service|power|electricity)|(?:shut|cut|turn) (?:off|down) your (?:power|gas|water|electricity|service|lights)|(?:crew|technician|truck|team) (?:is|are) (?:on (?:the|its|their) way|coming|headed) to (?:shut|cut|turn|disconnect)|disconnect(?:ion|ed)? (?:of (?:your )?(?:service|power|electricity) )?(?:today |within |in (?:the next )?)?(?:\d+|thirty) minutes|disconnection (?:department|notice)|due to (?:a |an )?(?:pending|past due|overdue|unpaid|delinquent|outstanding) (?:balance|bill|payment|account))/i,
    hint: ['disconnect*', 'shut', 'cut', 'turned', 'terminated', 'interrupted', 'interruption', 'termination', 'shutoff', 'pending', 'past', 'overdue', 'unpaid', 'delinquent', 'outstanding', 'crew', 'technician', 'truck', 'team'],
  },
  {
    id: 'loss_threat',
    tactic: 'threat',
    weight: 1.0,
    re: /\b(?:(?:will|would) (?:be|get|become) (?:suspended|cancell?ed|terminated|blocked|frozen|voided?|revoked|deactivated|locked|obsolete|ineligible)|(?:we|they) will (?:label|mark|flag) you|lose (?:all )?(?:your|the) (?:benefits|coverage|money|savings|account|data|files)|financially responsible|(?:will be|is going to be|gets?) (?:removed|deleted|shut down|closed) (?:today|permanently|unless)|to keep your (?:account|service|benefits|listing) active|(?:penalt(?:y|ies)|fines?) (?:of|up to) \$?\d|(?:legal|serious) (?:consequences|trouble|action))\b/i,
    hint: ['suspended', 'cancel*', 'terminated', 'blocked', 'frozen', 'void*', 'revoked', 'deactivated', 'locked', 'obsolete', 'ineligible', 'label', 'mark', 'flag', 'lose', 'financially', 'penalt*', 'fine', 'fines', 'consequences', 'trouble', 'action', 'removed', 'deleted', 'shut', 'closed', 'active'],
  },

  // ── remote access ────────────────────────────────────────────────────────────────────────
  {
    id: 'remote_tool',
    tactic: 'remote_access',
    weight: 2.0,
    votes: { 'Computer & Technical Support': 1.5 },
    negatable: true,
    re: /\b(?:any ?desk|team ?viewer|ultra ?viewer|supremo|logmein|log me in|ammyy|rustdesk|splashtop|screenconnect|connectwise|zoho assist|remote ?pc|quick ?assist|go ?to ?assist|bomgar|show ?my ?pc|aeroadmin|chrome remote desktop)\b/i,
    hint: ['anydesk', 'desk', 'viewer', 'teamviewer', 'ultraviewer', 'supremo', 'logmein', 'log', 'ammyy', 'rustdesk', 'splashtop', 'screenconnect', 'connectwise', 'zoho', 'remotepc', 'pc', 'quickassist', 'assist', 'goto*', 'bomgar', 'showmypc', 'aeroadmin', 'chrome', 'desktop'],
  },
  {
    id: 'remote_request',
    tactic: 'remote_access',
    weight: 1.8,
    votes: { 'Computer & Technical Support': 1.5 },
    negatable: true,
    re: /\b(?:(?:give|grant|allow|let) (?:me|us|our (?:technician|technicians|team|engineer)) (?:remote )?(?:access|control)(?: to| of)? (?:your|the) (?:computer|pc|laptop|screen|phone|device)|remote (?:access|session|connection|control|support session)|(?:download|install|open) (?:an? |the |this )?(?:app|application|software|program|tool)(?: (?:called|named) \w+)?(?: (?:on|to) your (?:computer|pc|laptop|phone))?(?: so (?:that )?(?:i|we) can)|share your screen|(?:type|go to|open your browser and go to) (?:www\.|w w w)|(?:windows|start) (?:key|button) (?:and|plus) (?:r|x)\b|event viewer|(?:connect|log ?in) (?:to|into) your (?:computer|pc|laptop|device))/i,
    hint: ['access', 'control', 'remote', 'download', 'install', 'open', 'screen', 'www', 'w', 'key', 'button', 'event', 'connect', 'log', 'login'],
  },
  {
    id: 'tech_problem',
    weight: 1.2,
    votes: { 'Computer & Technical Support': 3 },
    re: /\b(?:(?:your|ur|the) (?:computer|pc|laptop|device|windows|system|router|ip address|network)(?: is| has)? (?:been )?(?:infected|hacked|compromised|sending (?:out )?(?:errors|viruses)|hijacked|corrupted|at risk|blocked)|(?:virus|malware|spyware|trojan|hackers?)\b[^.]{0,40}\b(?:your|ur) (?:computer|pc|laptop|device|system|network|account)|(?:microsoft|windows|apple|icloud) (?:technical |tech |help |security )?(?:support|help ?(?:desk|center)|security|department|technician)|tech(?:nical)? support (?:department|team|center)|(?:license|subscription) (?:has )?expired)/i,
    hint: ['computer', 'pc', 'laptop', 'device', 'windows', 'system', 'router', 'ip', 'network', 'virus', 'malware', 'spyware', 'trojan', 'hacker*', 'microsoft', 'apple', 'icloud', 'tech*', 'support', 'license', 'subscription'],
  },

  // ── untraceable payment ─────────────────────────────────────────────────────────────────
  {
    id: 'gift_card_payment',
    tactic: 'untraceable_payment',
    weight: 2.6,
    negatable: true,
    re: /\b(?:(?:pay|paying|payment|buy|purchase|get|pick up|send|read|scratch|load|accept)\b[^.]{0,40}\b(?:(?:google ?play|i-?tunes|steam|razer gold|vanilla|green ?dot)(?: gift)? cards?|(?:apple|amazon|target|walmart|best buy|ebay|sephora|visa|nordstrom|home depot|xbox|playstation|psn|prepaid|reloadable)? ?gift ?cards?|money ?pak|moneypak|reload(?:it)? packs?|(?:prepaid|reloadable|pre-paid) (?:debit |visa )?cards?)|(?:(?:google ?play|i-?tunes|steam|razer gold|vanilla|green ?dot)(?: gift)? cards?|(?:apple|amazon|target|walmart|best buy|ebay|sephora|visa|nordstrom|home depot|xbox|playstation|psn|prepaid|reloadable)? ?gift ?cards?|money ?pak|moneypak|reload(?:it)? packs?|(?:prepaid|reloadable|pre-paid) (?:debit |visa )?cards?)[^.]{0,30}\b(?:numbers?|codes?|pins?|claim codes?|back of|pictures?|photos?)|(?:in|with|using|by|through) (?:(?:google ?play|i-?tunes|steam|razer gold|vanilla|green ?dot)(?: gift)? cards?|(?:apple|amazon|target|walmart|best buy|ebay|sephora|visa|nordstrom|home depot|xbox|playstation|psn|prepaid|reloadable)? ?gift ?cards?|money ?pak|moneypak|reload(?:it)? packs?|(?:prepaid|reloadable|pre-paid) (?:debit |visa )?cards?)|(?:scratch|read me) (?:off )?(?:the )?(?:back|numbers?|pin|code)(?: of| on) (?:the|each) card)\b/i,
    hint: ['card', 'cards', 'giftcard*', 'moneypak', 'pak', 'reload*'],
  },
  {
    id: 'crypto_payment',
    tactic: 'untraceable_payment',
    weight: 1.8,
    votes: { Cryptocurrency: 2.5 },
    negatable: true,
    re: /\b(?:bitcoin (?:atm|machine|kiosk|wallet|address)|crypto(?:currency)? (?:atm|machine|kiosk|wallet|address|account)|(?:buy|send|deposit|convert|transfer|pay)\b[^.]{0,30}\b(?:bitcoin|btc|ethereum|eth|usdt|tether|crypto(?:currency)?|coins?)\b|wallet address|(?:scan|use) (?:the|this|a) qr code|coinbase|binance|coin ?flip|bitcoin depot)/i,
    hint: ['bitcoin', 'crypto*', 'btc', 'ethereum', 'eth', 'usdt', 'tether', 'coin*', 'qr', 'binance', 'wallet'],
  },
  {
    id: 'wire_cash_payment',
    tactic: 'untraceable_payment',
    weight: 1.4,
    negatable: true,
    re: /\b(?:(?:send|wire|transfer|pay|deposit|withdraw|mail|overnight)\b[^.]{0,40}\b(?:western union|money ?gram|ria money|zelle|cash ?app|venmo|wire transfer|cash in an envelope|cash by (?:mail|courier)|money order|cashier'?s check|in cash)|(?:western union|money ?gram)\b|(?:courier|driver|agent|someone|my lawyer|a lawyer) (?:will|is going to|can) (?:come (?:and |to )?)?(?:pick (?:it |them )?up|collect|come by for) (?:it|the (?:cash|money|payment|package))?|(?:safe|secure|protected|government|federal) (?:account|wallet|locker)|(?:take|withdraw) (?:out )?(?:all|the) (?:cash|money) (?:from|out of) your)/i,
    hint: ['western', 'moneygram', 'gram', 'ria', 'zelle', 'cash*', 'venmo', 'wire', 'money*', 'payment', 'package', 'safe', 'secure', 'protected', 'government', 'federal', 'courier', 'driver', 'agent', 'someone', 'lawyer'],
  },
  {
    id: 'pay_fee_first',
    tactic: 'untraceable_payment',
    weight: 1.3,
    votes: { 'Advance Fee Loan': 0.8, 'Lotteries, Prizes & Sweepstakes': 0.8 },
    negatable: true,
    re: /(?:\$\s?\d[\d,.]* (?:upfront|up front|up-front|in advance)\b|\b(?:(?:fees?|deposit)\b(?! (?:is |are )?waived)[^.]{0,60}\b(?:first|before (?:we|you|i) can|upfront|up front|in advance|to (?:release|process|receive|get|unlock|claim|transfer|activate|deposit|keep|hold|secure|reserve|collect|cover the))|(?:first|upfront|up front|up-front|in advance|before (?:we|you|i) can)\b[^.]{0,60}\b(?:fees?|deposit))\b)/i,
    hint: ['fee', 'fees', 'deposit*', 'upfront', 'advance', 'front'],
  },

  {
    id: 'check_forwarding',
    tactic: 'untraceable_payment',
    weight: 2.0,
    votes: { 'Work From Home & Other Ways To Make Money': 1.5 },
    re: /\b(?:keep (?:your|a) (?:part|share|commission|cut|fee)[^.]{0,40}\b(?:send|wire|transfer|forward)|(?:deposit|cash) (?:the|this|a|our) (?:check|cheque)[^.]{0,80}\b(?:send|wire|transfer|forward) (?:the rest|back|the remainder|the difference|the balance)|send (?:the rest|the remainder|the difference|back the difference))\b/i,
    hint: ['keep', 'check', 'cheque', 'rest', 'remainder', 'difference'],
  },
  // ── personal data and codes ─────────────────────────────────────────────────────────────
  {
    id: 'otp_request',
    tactic: 'otp_request',
    weight: 2.4,
    votes: { Phishing: 1 },
    negatable: true,
    re: /\b(?:(?:read|tell|give|provide|confirm|verify|send|share|say|repeat|need|want)\s+(?:me|us|back)?\s*(?:the|that|this|your)?\s*(?:\d[- ]digit\s+)?(?:(?:one[- ]time|verification|security|confirmation|authori[sz]ation|authentication|access|login|sms|text(?:ed)?)\s+)?(?:pass)?(?:code|pin|otp)s?\b(?:\s+(?:we|i|that we|that i|you)\s+(?:just\s+)?(?:sent|texted|received|got))?|(?:code|pin|otp) (?:we|i|that we) (?:just )?(?:sent|texted)(?: (?:to )?you)?|(?:what|read me) (?:is )?the code)/i,
    hint: ['code', 'codes', 'pin', 'pins', 'otp', 'otps', 'passcode', 'passcodes'],
  },
  {
    id: 'credential_request',
    tactic: 'pii_harvest',
    weight: 2.4,
    votes: { Phishing: 1 },
    negatable: true,
    re: /\b(?:(?:verify|confirm|give|provide|tell|read|need|update|enter|share)\s+(?:me|us)?\s*(?:with\s+)?(?:your|the|ur)\s+(?:full\s+)?(?:password|passcode|online banking (?:login|password)|user ?name and password|log-?in (?:details|credentials)|security (?:questions?|answers?)|mother'?s maiden name|(?:bank |checking |savings )?account (?:number|and routing)|routing number|card number|credit card (?:number|details|information)|debit card (?:number|details)|cvv|cvc|security code|expiration date|pin(?: number)?))\b/i,
    hint: ['password*', 'passcode', 'login', 'log', 'security', 'maiden', 'account', 'routing', 'card', 'cvv', 'cvc', 'expiration', 'pin', 'username', 'user'],
  },
  {
    id: 'ssn_request',
    tactic: 'pii_harvest',
    weight: 1.8,
    votes: { Phishing: 1, [GOV]: 0.5 },
    negatable: true,
    re: /\b(?:(?:verify|confirm|give|provide|tell|read|need|have|get|update|state)\s+(?:me|us)?\s*(?:with\s+)?(?:your|the|ur)\s+(?:full\s+)?(?:social(?: security)?(?: number)?|ssn|last four (?:digits )?of your social|date of birth|dob|medicare (?:number|id|card number)|driver'?s license(?: number)?|passport number)|what(?: is|'s) your (?:social(?: security)?(?: number)?|ssn|date of birth|medicare number))\b/i,
    hint: ['social', 'ssn', 'birth', 'dob', 'medicare', 'license', 'passport'],
  },

  // ── lures ────────────────────────────────────────────────────────────────────────────────
  {
    id: 'prize',
    tactic: 'prize_lure',
    weight: 1.6,
    votes: { 'Lotteries, Prizes & Sweepstakes': 3 },
    re: /\b(?:(?:you(?:'ve| have)?|u) (?:just )?(?:won(?!')|been (?:selected|chosen|picked)|are (?:the|a|our) (?:lucky )?(?:winner|recipient))|congratulations[^.]{0,60}\b(?:won|winner|selected|chosen|prize|award|eligible|qualif)|(?:lottery|sweepstakes|jackpot|grand prize|cash prize) (?:winner|winnings|prize|department|claim|award|payout|office|board)|(?:publishers clearing house|mega millions|powerball) (?:prize|winner|winnings|department|award|prize patrol)|(?:claim|collect|receive|get) (?:your|the) (?:\$?\d+ )?(?:prize|winnings|award|reward|gift)|(?:receiving|receive|get) (?:a |an |your )?\$\d+ (?:reward|gift card|prize|bonus)|drawn to receive|(?:free|complimentary) (?:gift|iphone|ipad|cruise|vacation|stay|trip))\b/i,
    hint: ['won', 'selected', 'chosen', 'picked', 'winner', 'recipient', 'congratulations', 'lottery', 'sweepstakes', 'jackpot', 'prize', 'publishers', 'mega', 'powerball', 'prize', 'winnings', 'award', 'reward', 'gift', 'bonus', 'drawn', 'free', 'complimentary'],
  },
  {
    id: 'refund',
    tactic: 'refund_bait',
    weight: 1.2,
    votes: { 'Computer & Technical Support': 0.6 },
    re: /\b(?:(?:you are|you're|you have been|you'?ve been) (?:eligible|entitled|owed|due) (?:for |to )?(?:a |an )?(?:full )?(?:refund|reimbursement|compensation|settlement)|(?:issue|process|give|send|transfer) (?:you )?(?:a |the |your )?(?:full )?refund|refund (?:department|of \$?\d)|(?:over ?charged|over ?paid|overpayment)|(?:by mistake|accidentally) (?:sent|transferred|deposited|refunded))\b/i,
    hint: ['refund*', 'eligible', 'entitled', 'owed', 'due', 'over', 'overcharged', 'overpaid', 'overpayment', 'mistake', 'accidentally'],
  },
  {
    id: 'family_emergency',
    tactic: 'family_fear',
    weight: 2.0,
    votes: { [GOV]: 2.5 },
    re: /\b(?:(?:grandma|grandpa|grandmother|grandfather|nana|mom|dad),? it'?s me|it'?s (?:me,? )?your (?:grandson|granddaughter|grandchild|nephew|niece|son|daughter)|(?:your|ur) (?:grandson|granddaughter|son|daughter|nephew|niece|husband|wife|child)[^.]{0,40}\b(?:in jail|arrested|(?:in|had|been in) (?:an? )?(?:car )?accident|in the hospital|kidnapped|in trouble|detained)|(?:post|pay|need) (?:his |her |my )?bail|bail (?:money|bond)|(?:i'?m|i am) in (?:jail|trouble|the hospital)|we have your (?:son|daughter|child|husband|wife))\b/i,
    hint: ['grand*', 'nana', 'mom', 'dad', 'son', 'daughter', 'nephew', 'niece', 'husband', 'wife', 'child', 'bail', 'jail', 'trouble', 'hospital'],
  },

  // ── call-back pressure (robocall mechanics) ─────────────────────────────────────────────
  {
    id: 'press_key',
    tactic: 'callback_pressure',
    weight: 1.1,
    re: new RegExp(String.raw`(?<!\b(?:i|i'll|i'd|i'm|we|we'll|they|he|she)\s+(?:\w+\s+)?)\b${PRESS}|\b(?:please|kindly) press\b|按\s*[0-9一二九]`, 'i'),
    hint: ['press*', 'dial', 'push', 'hit', '按'],
  },
  {
    id: 'call_back',
    tactic: 'callback_pressure',
    weight: 0.9,
    re: /\b(?:(?:call|reach|contact|ring) (?:us|me|our (?:department|office|team|officer|agent))? ?(?:back )?(?:at|on)\s*(?:\+?1[ .-]?)?(?:\(?\d{3}\)?|eight|8 ?\d\d)|(?:call|return) (?:us|me|this call|our call) (?:back )?(?:immediately|asap|as soon as|urgently|right away|today)|callback number|(?:number|line) to reach (?:us|me|our)|toll[- ]free number|(?:call|reach) (?:us|me) back (?:on|at) the number (?:you see )?on your (?:caller id|screen|display|phone))/i,
    hint: ['call', 'reach', 'contact', 'ring', 'return', 'callback', 'toll'],
  },
  {
    id: 'unsolicited_robocall',
    weight: 0.8,
    re: /\b(?:to be (?:removed|taken off|placed on)[^.]{0,40}(?:list|calls)|do[- ]not[- ]call list|(?:we|i)(?: have been|'ve been) trying to (?:reach|contact) you|(?:this|the) (?:call|message) is (?:to inform|to notify|regarding|in regards? to|intended for) you|(?:this message is )?(?:fully |only )?intended for you|the purpose of (?:this|my|our) call is|(?:i am|i'm) an? (?:artificial|virtual|computer)|(?:this is )?a final courtesy call)\b/i,
    hint: ['removed', 'taken', 'placed', 'list', 'trying', 'automated', 'recorded', 'inform', 'notify', 'regarding', 'regards', 'regard', 'intended', 'purpose', 'artificial', 'virtual', 'computer', 'courtesy'],
  },
  {
    id: 'case_reference',
    weight: 0.4,
    re: /\b(?:(?:your|this|the) (?:case|file|complaint|reference|docket|claim) (?:number|id|#)|(?:about|regarding|know more about) (?:this|your|the) (?:case|matter|complaint))\b/i,
    hint: ['case', 'file', 'complaint', 'reference', 'docket', 'claim', 'matter'],
  },

  // ── offers that are scams when cold-pitched ─────────────────────────────────────────────
  {
    id: 'debt_reduction_offer',
    group: 'debt_pitch',
    weight: 2.0,
    votes: { [DEBT]: 3 },
    re: /\b(?:(?:qualify|qualified|eligible|approved|pre-?approved) for (?:a |the )?(?:0|zero|lower|reduced|low)(?: ?%| percent)?(?: (?:interest|apr|rate))|(?:lower|reduce|eliminate|lowering|reducing|eliminating) your (?:credit card |interest )?(?:interest )?(?:rates?|apr|payments?|debts?|balances?)|(?:rate|interest) reduction|(?:0|zero)(?: ?%| percent) (?:interest|apr)|(?:student )?loan (?:forgiveness|cancellation|discharge)|(?:forgiveness|hardship|consolidation|relief|debt elimination|debt reduction|repayment) (?:program|center|plan)|debt (?:elimination|forgiveness|consolidation|settlement)|(?:consolidate|refinance) (?:your )?(?:debts?|loans?|credit cards?|mortgage)|(?:your|on) (?:federal )?student loans?\b[^.]{0,60}\b(?:balance|payments?|forgiven|forgiveness|repayment|suspension|qualify|eligible)|(?:federal )?student loan (?:repayment|relief|payments?) (?:options|program|pause|suspension)|(?:loan|debt) (?:forgiveness|discharge|cancellation) (?:files?|efforts?|applications?|enrollment)|pre-?enrollment)/i,
    hint: ['qualif*', 'eligible', 'approved', 'lower*', 'reduc*', 'eliminat*', 'interest', 'apr', 'loan', 'program', 'center', 'plan', 'debt', 'consolidate', 'refinance', 'student', 'rate', 'reduction', 'pre', 'preenrollment', 'forgiveness', 'discharge', 'cancellation'],
  },
  {
    id: 'student_loan_relief',
    weight: 2.4,
    group: 'debt_pitch',
    votes: { 'Reducing Your Debt (Credit Cards, Mortgage, Student Loans)': 3 },
    re: /\b(?:(?:student )?loan (?:forgiveness|cancellation|discharge)|(?:forgiveness|hardship|discharge|cancellation) (?:program|programs|center|plan|files?|efforts?|applications?)|pre-?enrollment|(?:your|on|federal) student loans?\b[^.]{0,60}\b(?:forgiven|forgiveness|cancel(?:l?ed|lation)|discharge|suspension|qualify|eligible))/i,
    hint: ['loan', 'forgiveness', 'hardship', 'discharge', 'cancellation', 'pre', 'preenrollment', 'student', 'loans'],
  },
  {
    id: 'tax_relief_pitch',
    weight: 2.0,
    group: 'debt_pitch',
    votes: { 'Tax Collection': 3 },
    re: /\b(?:(?:back )?tax (?:debt )?(?:relief|resolution|negotiations?|forgiveness|settlement)|(?:zero|0)[- ]tax[- ]owed|tax debt relief)\b/i,
    hint: ['tax', 'zero'],
  },
  {
    id: 'credit_repair_offer',
    weight: 1.0,
    votes: { 'Credit Repair/Debt Relief': 3 },
    re: /\b(?:(?:repair|fix|boost|raise|improve) (?:your )?credit(?: score| report)?|remove (?:negative|bad) (?:items|marks|entries)|credit (?:repair|restoration)|credit profile number|\bcpn\b)\b/i,
    hint: ['credit', 'cpn'],
  },
  {
    id: 'loan_offer',
    weight: 0.7,
    votes: { 'Advance Fee Loan': 2 },
    re: /\b(?:(?:you(?:'ve| have)? been |you are |you're )?(?:pre-?)?approved for (?:a |an )?(?:personal |business |cash |payday )?loan|(?:guaranteed|instant) (?:loan|approval)|loan (?:approval|offer))/i,
    hint: ['loan', 'approval', 'approved'],
  },
  {
    id: 'warranty_pitch',
    weight: 1.4,
    votes: { 'Warranties & Protection Plans': 3.5 },
    re: /\b(?:(?:extended |factory |vehicle |car'?s |auto )?warranty (?:has |is about to |will |would |is going to )?(?:expir(?:es|ed|e|ing)|lapsed?|be voided?|voided?)|(?:car|vehicle|auto)(?:'s|s)? (?:extended |factory |manufacturer'?s )?warranty|(?:extend|reinstate|renew) (?:your |the )?(?:car'?s |vehicle'?s |auto |factory |extended )?warranty|vehicle service contract|(?:dealer|warranty) service (?:center|department)|(?:home|auto|vehicle|car) (?:warranty|protection plan))\b/i,
    hint: ['warranty', 'contract', 'dealer', 'protection'],
  },
  {
    id: 'medicare_pitch',
    weight: 1.2,
    votes: { 'Medical & Prescriptions': 3 },
    re: /\b(?:medicare (?:plan|benefits?|card|advantage|supplement|recipients?|beneficiar)|(?:new|free) (?:medicare|health) (?:card|insurance|benefits?|plan)|(?:back|knee) brace|medical alert (?:system|device)|diabetic (?:supplies|testing)|(?:cancer|genetic|dna) (?:screening|test(?:ing)?) (?:kit|at no cost)|(?:patient|health) advocate|final expense (?:program|insurance|plan|coverage)|(?:label|mark) you (?:as )?ineligible)\b/i,
    hint: ['medicare', 'medical', 'health', 'brace', 'diabetic', 'screening', 'test*', 'advocate', 'ineligible', 'expense'],
  },
  {
    id: 'travel_pitch',
    weight: 0.8,
    votes: { 'Travel/Vacation/Timeshare': 4 },
    re: /\b(?:(?:free |complimentary |discounted )?(?:cruise|vacation package|resort stay|hotel stay|timeshare)|timeshare (?:exit|resale|owners?)|(?:travel|vacation|rewards?) (?:club|program|membership|package)|(?:all[- ]inclusive) (?:trip|vacation|stay)|(?:night|day) stay (?:at|in))\b/i,
    hint: ['cruise', 'vacation', 'resort', 'hotel', 'timeshare', 'travel', 'reward*', 'inclusive', 'stay'],
  },
  {
    id: 'money_making_pitch',
    weight: 1.0,
    votes: { 'Work From Home & Other Ways To Make Money': 3 },
    re: /\b(?:work(?:ing)? from (?:home|your phone)|(?:make|earn) (?:up to )?\$?\d[\d,]*(?: dollars)? (?:a|per|every) (?:day|week|month|hour)|(?:business|investment) opportunity|guaranteed (?:returns?|profits?|income)|(?:double|triple) your (?:money|investment)|passive income|(?:mystery shopper|secret shopper|reshipping|package forwarding) (?:job|position))\b/i,
    hint: ['work*', 'make', 'earn', 'opportunity', 'guaranteed', 'double', 'triple', 'passive', 'shopper', 'reshipping', 'forwarding'],
  },
  {
    id: 'crypto_pitch',
    weight: 1.0,
    votes: { Cryptocurrency: 3 },
    re: /\b(?:(?:crypto(?:currency)?|bitcoin|forex) (?:investment|trading|platform|opportunity|mining|recovery)|recover (?:your )?(?:lost )?(?:crypto|bitcoin|funds)|(?:invest|investing) in (?:crypto|bitcoin))\b/i,
    hint: ['crypto*', 'bitcoin', 'forex', 'recover', 'invest*'],
  },
  {
    id: 'charity_pitch',
    weight: 0.7,
    votes: { Charity: 3 },
    re: /\b(?:(?:make|give|pledge) (?:a )?(?:donation|contribution|pledge)|(?:donate|donating) (?:to|today|now)|(?:charity|foundation|relief fund) for (?:veterans|children|officers|firefighters|disaster|victims)|(?:police|firefighters?|veterans?)(?:'|s)? (?:association|fund|foundation|benevolent))\b/i,
    hint: ['donat*', 'contribution', 'pledge', 'charity', 'foundation', 'fund', 'association', 'benevolent'],
  },
  {
    id: 'covid_pitch',
    weight: 0.8,
    votes: { 'COVID-19': 3 },
    re: /\b(?:covid|coronavirus|corona virus|pandemic (?:relief|assistance|payment)|(?:vaccine|vaccination) (?:appointment|card|survey|passport)|(?:stimulus|relief) (?:check|payment))\b/i,
    hint: ['covid*', 'coronavirus', 'corona', 'pandemic', 'vaccin*', 'stimulus', 'relief'],
  },
  {
    id: 'directory_pitch',
    weight: 0.8,
    votes: { 'Yellow Pages/Directories': 3 },
    re: /\b(?:(?:your |the )?(?:business|google|yellow pages?|directory|maps) listing|yellow pages|business directory|(?:verify|update|claim) your (?:business|google) (?:listing|profile|page))\b/i,
    hint: ['listing', 'yellow', 'directory', 'profile', 'page'],
  },
  {
    id: 'bec_pitch',
    tactic: 'authority_impersonation',
    weight: 2.2,
    votes: { 'Business Email Compromise': 3.5 },
    re: /\b(?:(?:updated?|new|changed?) (?:bank(?:ing)? (?:details|information|account)|wire instructions|payment (?:details|instructions))|(?:change|update) (?:the|our) (?:bank(?:ing)? details|wire instructions|remittance)|(?:outstanding|overdue|pending) invoice|(?:ceo|cfo|chief executive|the boss|your boss|the director) (?:needs|wants|asked|asks) (?:you )?(?:to )?(?:wire|transfer|buy|pay|purchase)|(?:this is|it'?s) \w+,? (?:the|your) (?:ceo|cfo|boss|president|owner|managing director)|(?:we|i) (?:have )?changed (?:our )?banks?)\b/i,
    hint: ['bank*', 'wire', 'payment', 'remittance', 'invoice', 'ceo', 'cfo', 'chief', 'boss', 'director', 'president', 'owner', 'changed'],
  },
  {
    id: 'romance_pitch',
    weight: 1.0,
    votes: { Romance: 3 },
    re: /\b(?:my (?:love|darling|sweetheart|dear husband|dear wife|honey),? i need|(?:met|meet) (?:on|through) (?:the )?(?:dating|facebook|instagram|match|tinder)|(?:oil rig|deployed overseas|peacekeeping mission)|plane ticket to (?:come|see|visit) you)\b/i,
    hint: ['love', 'darling', 'sweetheart', 'dear', 'honey', 'dating', 'facebook', 'instagram', 'match', 'tinder', 'oil', 'rig', 'deployed', 'peacekeeping', 'plane'],
  },
  {
    id: 'rental_pitch',
    weight: 0.8,
    votes: { Rental: 3 },
    re: /\b(?:(?:deposit|first month'?s rent) (?:to (?:hold|secure|reserve)|before (?:you )?(?:see|view|visit))|(?:i'?m|i am) (?:out of the country|overseas|abroad)[^.]{0,40}\b(?:keys?|apartment|house|property|show)|mail you the keys?)\b/i,
    hint: ['deposit', 'rent', 'country', 'overseas', 'abroad', 'keys', 'key'],
  },
  {
    id: 'moving_pitch',
    weight: 0.6,
    votes: { Moving: 3 },
    re: /\b(?:moving (?:company|quote|estimate|deposit)|(?:movers|moving truck) (?:deposit|booking))\b/i,
    hint: ['moving', 'movers'],
  },
  {
    id: 'counterfeit_pitch',
    weight: 0.6,
    votes: { 'Counterfeit Product': 3 },
    re: /\b(?:replica|knock-?off|designer (?:bags|watches|handbags) (?:at|for) (?:\d+%|a fraction))\b/i,
    hint: ['replica', 'knock*', 'designer'],
  },
  {
    id: 'package_problem',
    weight: 1.2,
    votes: { [GOV]: 2 },
    re: /\b(?:(?:package|parcel|shipment|delivery|mail|express)\b[^.]{0,50}\b(?:seized|ceased|held|confiscated|detained|returned|undeliverable|contains? (?:illegal|drugs|passports|counterfeit)|(?:delivered|sent) twice|no one (?:has )?signed)|(?:illegal|suspicious) (?:items|documents|passports|drugs)[^.]{0,30}\b(?:package|parcel|shipment|in your name))|(?:快递|包裹|邮件|快件)[^。]{0,20}(?:退回|扣|违法|非法|异常|最后|无人签收)|最后一次通知|无人签收/i,
    hint: ['package', 'parcel', 'shipment', 'delivery', 'mail', 'express', 'illegal', 'suspicious', '快递', '包裹', '邮件', '快件', '最后一次通知', '无人签收'],
  },
  {
    id: 'chinese_authority',
    tactic: 'authority_impersonation',
    weight: 1.2,
    votes: { [GOV]: 2 },
    re: /(?:大使馆|领事馆|公安|警察|检察院|法院|海关|移民局|国际快递)/,
    hint: ['大使馆', '领事馆', '公安', '警察', '检察院', '法院', '海关', '移民局', '国际快递'],
  },

  // ── benign framing: honest businesses say these, scripts rarely do ──────────────────────
  {
    id: 'safety_disclaimer',
    weight: -2.0,
    re: /\b(?:(?:never|not|won't|do not|don't|would never)(?: ever)? (?:(?:call|text|email|contact) (?:you )?(?:to )?)?(?:ask|request)(?: you)?(?: (?:for|to (?:share|give|provide|send|read|confirm|verify|pay)))|(?:never|do not|don'?t) (?:share|give|read|tell)(?: (?:this|the|your))? (?:code|password|pin)(?:s)?(?: (?:with|to) anyone| to anybody)?|(?:call|contact) (?:us at )?the number on the back of your card|log (?:in|into) (?:the|our|your) (?:official )?(?:app|website) directly)\b/i,
    hint: ['ask', 'request', 'code', 'codes', 'password', 'passwords', 'pin', 'pins', 'card', 'directly'],
  },
  {
    id: 'collection_disclosure',
    weight: -1.2,
    votes: { 'Debt Collection': 2 },
    re: /\b(?:this is an attempt to collect a debt|any information obtained will be used for that purpose|this (?:call|communication|message) is from a debt collector)\b/i,
    hint: ['collect', 'purpose', 'collector'],
  },
  {
    id: 'debt_collection_topic',
    weight: 0.3,
    votes: { 'Debt Collection': 3 },
    re: /\b(?:collections? (?:agency|department)|(?:outstanding|unpaid|past[- ]due|delinquent) (?:payday )?(?:debt|balance|loan|account)|(?:your )?(?:debt|account) (?:has been|was) (?:sent|referred|transferred) to (?:collections?|our (?:office|firm)))\b/i,
    hint: ['collection*', 'outstanding', 'unpaid', 'past', 'delinquent', 'debt', 'referred'],
  },
  {
    id: 'credit_card_offer',
    weight: 0.3,
    votes: { 'Credit Cards': 2 },
    re: /\b(?:(?:visa|mastercard|credit card) (?:account services|member services|services)|(?:activate|upgrade) your (?:new )?(?:credit )?card|(?:pre-?approved|approved) for (?:a |an )?(?:new )?(?:platinum |gold )?credit card)\b/i,
    hint: ['visa', 'mastercard', 'credit', 'card'],
  },
  {
    id: 'survey_pitch',
    weight: -0.2,
    votes: { Surveys: 2.5 },
    re: /\b(?:(?:take|participate in|answer) (?:a |our )?(?:short |brief |quick )?(?:survey|poll|questionnaire)|(?:political|opinion|customer satisfaction) (?:survey|poll))\b/i,
    hint: ['survey', 'poll', 'questionnaire'],
  },
];

/** How much the count of distinct tactics adds: several kinds of pressure at once is the mark of a script. */
export const TACTIC_DIVERSITY_BONUS = [0, 0, 0.4, 0.9, 1.3] as const;

/** Log-odds of a scam with no evidence at all. Calibrated with the scale below (see `calibration.ts`). */
export const CUE_SCALE_NOTE = 'weights are log-odds; the calibration maps their sum to a probability';
