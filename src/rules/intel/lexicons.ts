import { PatternSet } from '../../util/pattern-set.js';

/** Named things callers mention, each with its canonical label and the ways it is said or misheard. */
export interface LexEntry {
  label: string;
  re: RegExp;
}

function entry(label: string, pattern: string): LexEntry {
  return { label, re: new RegExp(String.raw`\b(?:${pattern})\b`, 'i') };
}

export const GIFT_CARD_BRANDS: readonly LexEntry[] = [
  entry('Google Play', String.raw`google ?play(?: store)? (?:gift )?cards?`),
  entry('Apple', String.raw`(?:apple|i-?tunes|app store)(?: store)? (?:gift )?cards?`),
  entry('Amazon', String.raw`amazon (?:gift )?cards?`),
  entry('Steam', String.raw`steam (?:gift |wallet )?cards?`),
  entry('Target', String.raw`target (?:gift )?cards?`),
  entry('Walmart', String.raw`walmart (?:gift )?cards?`),
  entry('Best Buy', String.raw`best buy (?:gift )?cards?`),
  entry('eBay', String.raw`ebay (?:gift )?cards?`),
  entry('Sephora', String.raw`sephora (?:gift )?cards?`),
  entry('Vanilla', String.raw`vanilla(?: visa| mastercard)? (?:gift |prepaid )?cards?`),
  entry('Visa gift card', String.raw`visa gift cards?`),
  entry('Razer Gold', String.raw`razer gold`),
  entry('Green Dot', String.raw`green ?dot(?: moneypak| card)?`),
  entry('MoneyPak', String.raw`money ?pak`),
  entry('Xbox', String.raw`xbox (?:gift )?cards?`),
  entry('PlayStation', String.raw`(?:playstation|psn) (?:gift |store )?cards?`),
  entry('Home Depot', String.raw`home depot (?:gift )?cards?`),
  entry('Nordstrom', String.raw`nordstrom (?:gift )?cards?`),
];

export const PAYMENT_APPS: readonly LexEntry[] = [
  entry('Zelle', 'zelle'),
  entry('Cash App', String.raw`cash ?app`),
  entry('Venmo', 'venmo'),
  entry('PayPal', String.raw`pay ?pal`),
  entry('Western Union', String.raw`western union`),
  entry('MoneyGram', String.raw`money ?gram`),
  entry('Ria', String.raw`ria money(?: transfer)?`),
  entry(
    'wire transfer',
    String.raw`wire (?:transfer|the money|the funds|it)|bank wire|wiring (?:the )?(?:money|funds)`,
  ),
  entry('Bitcoin ATM', String.raw`(?:bitcoin|crypto(?:currency)?|btc) (?:atm|machine|kiosk)|bitcoin depot|coin ?flip`),
  entry('Bitcoin', String.raw`bitcoin|btc`),
  entry('Ethereum', String.raw`ethereum`),
  entry('USDT', String.raw`usdt|tether`),
  entry('Coinbase', 'coinbase'),
  entry('Binance', 'binance'),
  entry('Apple Pay', String.raw`apple ?pay`),
  entry('Google Pay', String.raw`google ?pay|g ?pay`),
  entry('Chime', 'chime'),
  entry('money order', String.raw`money orders?`),
  entry("cashier's check", String.raw`cashier'?s checks?`),
  entry(
    'cash by courier',
    String.raw`(?:courier|driver) (?:will|is going to) (?:come|pick up|collect)|cash in (?:an|the) envelope`,
  ),
];

export const REMOTE_TOOLS: readonly LexEntry[] = [
  entry('AnyDesk', String.raw`any ?desk`),
  entry('TeamViewer', String.raw`team ?viewer`),
  entry('UltraViewer', String.raw`ultra ?viewer`),
  entry('Supremo', 'supremo'),
  entry('LogMeIn', String.raw`log ?me ?in`),
  entry('Ammyy Admin', String.raw`ammyy`),
  entry('RustDesk', String.raw`rust ?desk`),
  entry('Splashtop', String.raw`splash ?top`),
  entry('ScreenConnect', String.raw`screen ?connect|connectwise`),
  entry('Zoho Assist', String.raw`zoho assist`),
  entry('Quick Assist', String.raw`quick ?assist`),
  entry('GoToAssist', String.raw`go ?to ?assist|gotomypc`),
  entry('Chrome Remote Desktop', String.raw`chrome remote desktop`),
  entry('AeroAdmin', String.raw`aero ?admin`),
  entry('RemotePC', String.raw`remote ?pc`),
  entry('ShowMyPC', String.raw`show ?my ?pc`),
  entry('Bomgar', 'bomgar'),
];

/** Organisations scripts most often claim to be; the label is the canonical name. */
export const ORGANIZATIONS: readonly LexEntry[] = [
  entry(
    'Social Security Administration',
    String.raw`social security administration|\bssa\b|department of social security`,
  ),
  // "Internal revenue" alone: a recogniser often mangles the last word ("internal revenue fair event").
  entry('IRS', String.raw`internal revenue|\birs\b`),
  entry('U.S. Customs and Border Protection', String.raw`customs and border(?: protection)?`),
  entry('FBI', String.raw`\bfbi\b|federal bureau of investigation`),
  entry('DEA', String.raw`\bdea\b|drug enforcement administration`),
  entry('Federal Reserve', String.raw`federal reserve`),
  entry('Federal Trade Commission', String.raw`federal trade commission|\bftc\b`),
  entry('Medicare', 'medicare'),
  entry('Amazon', 'amazon'),
  entry('Apple', String.raw`apple(?! pay)|icloud`),
  entry('Microsoft', String.raw`microsoft|windows (?:support|technical)`),
  entry('PayPal', String.raw`pay ?pal`),
  entry('Cash App', String.raw`cash ?app`),
  entry('Visa', String.raw`\bvisa\b(?! gift)`),
  entry('Mastercard', 'mastercard'),
  entry('Wells Fargo', 'wells fargo'),
  entry('Bank of America', 'bank of america'),
  entry('Chase', String.raw`\bchase\b(?= bank| fraud| card| account| security)|jp ?morgan chase`),
  entry('Citibank', String.raw`citi ?bank`),
  entry('Capital One', 'capital one'),
  entry('AT&T', String.raw`at&t|at and t`),
  entry('DirecTV', String.raw`direct? ?tv`),
  entry('Verizon', 'verizon'),
  entry('Comcast', String.raw`comcast|xfinity`),
  entry('FedEx', 'fedex'),
  entry('UPS', String.raw`\bups\b`),
  entry('USPS', String.raw`usps|postal service`),
  entry('DHL', 'dhl'),
  entry('Geek Squad', 'geek squad'),
  entry('Norton', 'norton'),
  entry('McAfee', 'mcafee'),
  entry('Publishers Clearing House', 'publishers clearing house'),
];

/** The labels of the entries said in `text`, in lexicon order, each once. */
export function findLexicon(text: string, lex: readonly LexEntry[]): string[] {
  let set = SETS.get(lex);
  if (!set) SETS.set(lex, (set = new PatternSet(lex.map((e) => e.re))));
  const said = set.present(text);
  const out: string[] = [];
  for (let i = 0; i < lex.length; i++) if (said[i] && !out.includes(lex[i]!.label)) out.push(lex[i]!.label);
  return out;
}

const SETS = new WeakMap<readonly LexEntry[], PatternSet>();
