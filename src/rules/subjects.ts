/*
 * Complaint subjects from the story the caller tells. Each subject the words of a call can name has one
 * story rule; `settleSubject` decides between the subject the scorer proposed (evidence votes, the model's
 * nearest centroid) and the story, so that a weak call gets the subject its story supports, or `Other`,
 * never the nearest guess. docs/rules.md (Complaint subjects) gives the rule for each of the 34 subjects.
 */
import type { Category, VerdictCategory } from '../domain/categories.js';
import { LIKELY_SCAM_AT, SUSPICIOUS_AT } from '../domain/levels.js';

const GOV: Category = 'Calls pretending to be government, businesses, or family and friends';
const DEBT: Category = 'Reducing Your Debt (Credit Cards, Mortgage, Student Loans)';

/**
 * The story each subject is told with, most specific first: the first that matches is the call's subject.
 * Patterns read lower-cased text; every repetition is bounded (no input backtracks quadratically).
 */
export const STORIES: ReadonlyArray<readonly [Category, RegExp]> = [
  [
    'Business Email Compromise',
    /\b(?:(?:ceo|cfo|chief executive|chief financial officer|managing director|finance director)\b[^\n]{0,160}?\b(?:wire|transfer|payment|invoice|gift cards?)|(?:new|updated|changed) (?:bank(?:ing)?|account|remittance|payment) (?:details|information|instructions)|vendor (?:account|payment)|(?:redirect|reroute) (?:the |this )?(?:payment|invoice|wire)|outstanding invoice|payroll (?:change|update|account))\b/,
  ],
  [
    'Romance',
    /\b(?:my (?:love|darling|sweetheart|honey)\b|i love you|(?:met|talking|chatting) (?:on|through) (?:the )?(?:dating|facebook|instagram|whatsapp|tinder|match)|(?:oil rig|peacekeeping mission|deployed|stationed) (?:overseas|abroad|in)|(?:plane|flight) ticket to (?:come )?(?:see|visit|meet) you|so we can (?:finally )?(?:meet|be together))\b/,
  ],
  [
    'Tax Collection',
    /\b(?:irs|internal revenue|tax (?:debt|relief|return|refund|department|liabilit\w*|fraud|evasion|audit|lien|bill|payment)s?|back taxes|unpaid taxes|(?:owe|owing) (?:the )?taxes|treasury department|taxes? (?:owed|due))\b/,
  ],
  [
    'COVID-19',
    /\b(?:covid(?:-?19)?|coronavirus|corona virus|pandemic|vaccin\w+|stimulus (?:check|payment)s?|(?:covid|home) test(?:ing)? kits?)\b/,
  ],
  [
    'Computer & Technical Support',
    /\b(?:computer|laptop|virus(?:es)?|malware|spyware|technical support|tech support|windows (?:license|support|defender|firewall)|microsoft|hackers?|any ?desk|team ?viewer|ultra ?viewer|remote (?:access|desktop|session)|ip address|firewall|(?:icloud|device|router|email|network|system) (?:account )?(?:has been |is |was |got )?(?:breached|hacked|infected|compromised))\b/,
  ],
  [
    'Travel/Vacation/Timeshare',
    /\b(?:cruises?|vacations?|resorts?|timeshares?|time share|hotel (?:stay|package)|free (?:trip|stay|nights?)|travel (?:package|club|deal)|hilton|marriott|all-inclusive|bahamas)\b/,
  ],
  [
    'Lotteries, Prizes & Sweepstakes',
    /\b(?:sweepstakes?|lottery|lotto|you(?:'ve| have)? (?:just )?won|you are (?:the|a) (?:lucky )?winner|(?:been )?selected (?:for|to receive|to win) (?:a|an|our|the)|grand prize|claim (?:your|the) (?:prize|winnings|reward)|publishers clearing house|prize (?:money|of)|cash prize|jackpot)\b/,
  ],
  [
    'Advance Fee Loan',
    /\b(?:(?:loan|financing|line of credit)\b[^.?!]{0,80}\b(?:(?:processing|upfront|up front|insurance|origination|application|transfer|activation) (?:fee|charge|deposit)|deposit)|(?:fee|deposit|insurance)\b[^.?!]{0,60}\b(?:release|receive|get|disburse|fund)\w* (?:the |your )?(?:loan|funds))\b/,
  ],
  [
    'Credit Repair/Debt Relief',
    /\b(?:credit (?:score|report|rating|history|file)\b[^.?!]{0,60}\b(?:repair|fix|improve|boost|raise|clean|remove|increase|restore)\w*|(?:repair|fix|improve|boost|raise|clean up|restore) (?:your |the )?credit\b|remove (?:negative|bad) (?:items|marks|entries)|credit repair)\b/,
  ],
  [
    DEBT,
    /\b(?:student loans?|(?:loan|debt) forgiveness|forgiveness program|interest rates?|rate (?:reduction|expiration)|debt (?:relief|consolidation|reduction|settlement|elimination)|consolidat\w+ (?:your )?(?:debts?|loans?|credit cards?|bills)|credit card (?:debt|balances?)|(?:lower|reduce) (?:your )?(?:monthly )?(?:payments?|mortgage)|mortgage (?:relief|modification)|refinanc\w+ (?:your )?(?:mortgage|home|loan))\b/,
  ],
  [
    'Utility',
    /\b(?:electric(?:ity)?|utility|utilities|power (?:company|bill|will be|supply|shut ?off)|gas (?:company|bill|service)|water (?:company|bill|service)|disconnection|meter (?:replacement|reading)|energy (?:bill|company|rebate|provider)|pg&e|duke energy|dominion energy)\b/,
  ],
  [
    'Debt Collection',
    /\b(?:debt collect\w*|collections? (?:agency|department|account)|(?:past[- ]due|outstanding|unpaid|delinquent) (?:[a-z]+ ){0,2}(?:balance|debt|account|bill|loan|payment)s?|payday loan|settle (?:this|the|your) (?:debt|account|balance|matter)|(?:collect|recover) (?:a|the|this|your) debt|defaulted (?:on )?(?:a |your )?(?:loan|payday))\b/,
  ],
  [
    'Cryptocurrency',
    /\b(?:(?:bitcoin|crypto\w*|ethereum|usdt|tether|coinbase|binance|blockchain|digital currency)\b[^.?!]{0,40}\b(?:invest\w*|trading|platform|profits?|returns?|recover\w*|mining|exchange account)|invest\w* (?:in|into) (?:bitcoin|crypto\w*|ethereum)|(?:recover|get back) (?:your )?(?:lost )?(?:bitcoin|crypto\w*|funds)|mining (?:pool|contract))\b/,
  ],
  [
    'Work From Home & Other Ways To Make Money',
    /\b(?:work(?:ing)? from home|remote (?:job|position|work|opportunity)|data entry|job (?:offer|opportunity|position)|(?:position|job) (?:paying|that pays)|(?:earn|make) (?:up to )?\$?[\d,]{1,9}(?: dollars)? (?:a|per|every) (?:day|week|hour|month)|dollars (?:an|per) hour|mystery shopper|reshipping|business opportunity|passive income|guaranteed (?:returns?|income|profits?)|investment opportunity)\b/,
  ],
  [
    'Warranties & Protection Plans',
    /\b(?:warrant(?:y|ies)|vehicle service (?:department|center|contract)|auto (?:protection|warranty)|extended (?:coverage|service plan)|protection plan|service contract|home protection|coverage (?:is about to|will) (?:expire|end))\b/,
  ],
  [
    'Moving',
    /\b(?:moving (?:company|companies|quote|estimate|deposit|truck|crew|services?|date)|movers|relocation (?:services?|company)|(?:your|the|upcoming) (?:move|relocation)\b|storage unit)\b/,
  ],
  [
    'Rental',
    /\b(?:(?:apartment|house|property|unit|condo|rental)\b[^.?!]{0,60}\b(?:for rent|first month|lease|keys?)|(?:deposit|first month'?s rent) (?:to (?:hold|secure|reserve)|before (?:you )?(?:see|view|visit|move))|(?:i'?m|i am) (?:out of the country|overseas|abroad)[^.?!]{0,40}\b(?:keys?|apartment|house|property)|mail you the keys?|rental (?:listing|application|deposit))\b/,
  ],
  [
    'Charity',
    /\b(?:donat\w+|charit\w+|pledge|(?:relief|memorial|benevolent|children'?s|veterans'?|firefighters'?|police(?:men)?'?s?|cancer|hospital) (?:fund|foundation|association|society)|non-?profit|fundrais\w+|support (?:our|the) (?:troops|veterans|firefighters|officers|cause))\b/,
  ],
  [
    'Medical & Prescriptions',
    /\b(?:medicare|medicaid|health (?:insurance|plan|care plan|coverage)|back brace|knee brace|prescriptions?|medical (?:alert|device|supplies|equipment)|diabet\w+|pharmacy|hearing aids?|glucose monitor|open enrollment|licensed (?:health |insurance )?agent|aca plan|obamacare)\b/,
  ],
  [
    'Counterfeit Product',
    /\b(?:replicas?|knock-?offs?|counterfeit|designer (?:bags?|watches|handbags?) (?:at|for) (?:a )?(?:fraction|discount)|(?:cheap|discount(?:ed)?) (?:rolex|louis vuitton|gucci|viagra|cialis))\b/,
  ],
  [
    'Yellow Pages/Directories',
    /\b(?:yellow pages|(?:business|online|google|local) (?:directory|listings?|profile)|directory (?:listing|ad|advertisement)|google (?:my )?business|(?:verify|update|renew) (?:your )?(?:business )?listing|first page of google)\b/,
  ],
  [
    'Credit Cards',
    /\b(?:(?:pre-?approved|new|platinum|gold) credit card|credit card offer|activate your (?:new )?card|card activation|(?:apply|qualif\w+) for a (?:new )?credit card|credit limit increase)\b/,
  ],
  [
    // A known business's name outranks the bank story its script borrows ("suspicious activity on your account").
    GOV,
    /\b(?:amazon|apple|icloud|direct? ?tv|at&t|comcast|xfinity|spectrum|verizon|fedex|ups|usps|dhl|postal service|package (?:delivery|could not be delivered|is on hold)|order (?:has been |was )?placed|pre-?authori[sz]ed)\b/,
  ],
  [
    'Bank/Credit Card Company Imposter',
    /\b(?:(?:this is|calling from|call from|from) (?:your|the) bank\b|(?:bank(?:'s)?|card|account) (?:fraud|security) (?:department|team)|fraud (?:department|prevention|team|alert)|card ?member services|card services|visa|mastercard|(?:debit|credit) card (?:has been|was|is) (?:blocked|locked|frozen|suspended|compromised|charged)|chase|wells fargo|bank of america|citi ?bank|capital one|credit union|(?:cash app|paypal|venmo|zelle) (?:support|account|team|security|department|representative)|suspicious (?:charges?|transactions?|activit(?:y|ies)) on your (?:card|account|debit card|credit card)|unauthori[sz]ed (?:charges?|transactions?))\b/,
  ],
  [
    'Financial Services',
    /\b(?:business loans?|line of credit|cash advance|merchant (?:services|cash|account|funding)|working capital|(?:personal|installment|payday) loans?|(?:retirement|401 ?k|ira) (?:plan|account|rollover)|investment (?:account|portfolio|advisor)|precious metals?|pre-?approved (?:for )?(?:a )?(?:loan|funding))\b/,
  ],
  [
    GOV,
    /\b(?:social security|ssa|ssn|security number|federal|government|police|sheriff|officer|marshals?|warrant|legal (?:department|action|proceedings?|enforcement)|lawsuit|court|embassy|consulate|customs|border|immigration|homeland security|department of (?:justice|health|motor vehicles)|dmv|fbi|dea|federal trade commission|grand(?:ma|pa|mother|father|son|daughter|child|kid)s?|bail|(?:your|my) (?:son|daughter|nephew|niece|husband|wife|mom|dad|mother|father)\b[^.?!]{0,60}\b(?:accident|arrested|jail|hospital|trouble)|(?:i'?m|i am) in (?:trouble|jail))\b/,
  ],
  ['Cryptocurrency', /\b(?:bitcoin|crypto\w*|ethereum|usdt|tether|coinbase|binance)\b/],
  [
    'Store',
    /\b(?:your (?:recent )?(?:order|purchase) (?:from|at) (?:our|the) (?:store|shop|website)|(?:store|shop) (?:credit|refund|account)|refund (?:for|on) your (?:order|purchase)|online (?:order|purchase|store))\b/,
  ],
  [
    'Phishing',
    /\b(?:(?:verify|confirm|update|give me|read me|tell me|provide|need) (?:me )?(?:your |the )?(?:password|passcode|one[- ]time (?:code|password|pin)|verification code|security code|pin\b|login|username|account number|routing number|card number|social security number|date of birth|mother'?s maiden name|personal (?:information|details))|(?:code|pin) (?:we|i) (?:just )?(?:sent|texted))/,
  ],
  [
    'Advertising',
    /\b(?:special (?:offer|promotion|deal)|limited[- ]time (?:offer|deal)|percent off|discount(?:ed)? (?:rate|price|offer)|free (?:quote|estimate|consultation|installation|inspection)|solar (?:panels?|energy|program)|home improvement|roof(?:ing)? (?:inspection|replacement)|water (?:filter|purification|softener)|window replacement|carpet cleaning|promotional (?:department|offer))\b/,
  ],
  ['Surveys', /\b(?:surveys?|polls?|questionnaire|a (?:few|couple of) (?:short )?questions about)\b/],
];

/** Subjects that say "a scam, story unknown": a story, when there is one, names the call better. */
const CATCH_ALL: ReadonlySet<VerdictCategory> = new Set<VerdictCategory>([
  'Scammers',
  'Other',
  'No Subject Provided',
  'Phishing',
  'Company',
  'Hang Up',
]);

/** Every subject whose story the text tells, in the order of `STORIES`. */
export function storySubjects(text: string): Category[] {
  const lower = text.toLowerCase();
  const out: Category[] = [];
  for (const [subject, re] of STORIES) if (re.test(lower)) out.push(subject);
  return out;
}

/**
 * The verdict's subject. Below `suspicious` a call is `none`. A proposal stands when the call tells its
 * story; else the call gets the first story it tells; else a specific proposal stands on a call at
 * `likely_scam` or above (its evidence chose it), a catch-all too; and a weak call that tells no story is
 * `Other` (it names no fraud its words support, and `Other` is never filed below 0.85).
 */
export function settleSubject(text: string, score: number, proposed: VerdictCategory): VerdictCategory {
  if (score < SUSPICIOUS_AT) return 'none';
  const specific = proposed !== 'none' && !CATCH_ALL.has(proposed);
  const stories = storySubjects(text);
  if (specific && stories.includes(proposed as Category)) return proposed;
  if (stories.length) return stories[0]!;
  if (score < LIKELY_SCAM_AT) return 'Other';
  return proposed === 'none' ? 'Scammers' : proposed;
}

/** `settleSubject` on a verdict-like value; the same object when the subject stands. */
export function withSettledSubject<T extends { score: number; category: VerdictCategory }>(v: T, text: string): T {
  const category = settleSubject(text, v.score, v.category);
  return category === v.category ? v : { ...v, category };
}
