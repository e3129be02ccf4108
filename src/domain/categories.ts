/** The spec's complaint subjects, in the spec's order. A filed complaint carries the same string. */
export const CATEGORIES = [
  'Advance Fee Loan',
  'Bank/Credit Card Company Imposter',
  'Business Email Compromise',
  'Calls pretending to be government, businesses, or family and friends',
  'Charity',
  'Computer & Technical Support',
  'Counterfeit Product',
  'COVID-19',
  'Credit Cards',
  'Credit Repair/Debt Relief',
  'Cryptocurrency',
  'Debt Collection',
  'Lotteries, Prizes & Sweepstakes',
  'Medical & Prescriptions',
  'Moving',
  'No Subject Provided',
  'Phishing',
  'Reducing Your Debt (Credit Cards, Mortgage, Student Loans)',
  'Rental',
  'Romance',
  'Tax Collection',
  'Travel/Vacation/Timeshare',
  'Utility',
  'Warranties & Protection Plans',
  'Work From Home & Other Ways To Make Money',
  'Yellow Pages/Directories',
  'Hang Up',
  'Scammers',
  'Advertising',
  'Surveys',
  'Financial Services',
  'Store',
  'Company',
  'Other',
] as const;

export type Category = (typeof CATEGORIES)[number];
/** `none` marks a clean call; it is never a complaint subject. */
export type VerdictCategory = Category | 'none';

const CATEGORY_SET: ReadonlySet<string> = new Set<string>(CATEGORIES);
export function isCategory(value: unknown): value is Category {
  return typeof value === 'string' && CATEGORY_SET.has(value);
}
export function isVerdictCategory(value: unknown): value is VerdictCategory {
  return value === 'none' || isCategory(value);
}

/** Subjects that describe a nuisance rather than a fraud: never filed (spec, filing thresholds). */
export const NEVER_FILED: ReadonlySet<VerdictCategory> = new Set<VerdictCategory>([
  'none',
  'Advertising',
  'Surveys',
  'Hang Up',
  'No Subject Provided',
]);

export const CATEGORY_DESCRIPTIONS: Readonly<Record<Category, string>> = {
  'Advance Fee Loan': 'Caller promises a loan but asks for a fee, insurance or deposit to be paid first.',
  'Bank/Credit Card Company Imposter':
    'Caller pretends to be your bank or card issuer (fraud department, account locked, suspicious charge).',
  'Business Email Compromise':
    'Caller impersonates an executive, supplier or colleague to redirect a business payment or invoice.',
  'Calls pretending to be government, businesses, or family and friends':
    'Imposter of a government agency (other than tax), a known business, or a relative or friend in an emergency.',
  Charity: 'Solicitation for a charity, often fake or pressured, sometimes after a disaster.',
  'Computer & Technical Support':
    'Fake tech support: virus or hacked computer, asks to install remote-access software or pay for a fix or refund.',
  'Counterfeit Product': 'Offers of fake or knock-off goods.',
  'COVID-19': 'Pandemic-related offers: tests, vaccines, cures, relief payments.',
  'Credit Cards': 'Credit card offers, card activation or card-rate pitches that are not debt reduction.',
  'Credit Repair/Debt Relief': 'Promises to repair a credit score or remove negative items for a fee.',
  Cryptocurrency: 'Crypto investments, crypto recovery, or payment demanded in cryptocurrency.',
  'Debt Collection': 'Collection of a debt, real or fake, often with threats of arrest or lawsuit.',
  'Lotteries, Prizes & Sweepstakes': 'You won a prize, lottery or sweepstakes and must pay fees or taxes to collect.',
  'Medical & Prescriptions': 'Medical devices, prescriptions, health insurance, Medicare benefit pitches.',
  Moving: 'Moving-company offers or moving deposit scams.',
  'No Subject Provided': 'An unwanted call whose subject cannot be told.',
  Phishing: 'Attempts to obtain passwords, one-time codes, account numbers or personal data without a clear story.',
  'Reducing Your Debt (Credit Cards, Mortgage, Student Loans)':
    'Forgiveness, consolidation or a lower interest rate on an existing debt (cards, mortgage, student loans).',
  Rental: 'Fake rental listings, deposits for properties the caller does not control.',
  Romance: 'An online sweetheart asking for money, gift cards or crypto.',
  'Tax Collection': 'Tax authority or back-tax stories: IRS, tax debt, arrest over unpaid taxes.',
  'Travel/Vacation/Timeshare': 'Free cruises, vacation packages, timeshare resale or exit.',
  Utility: 'Electricity, gas or water company threats of disconnection or fake rebates.',
  'Warranties & Protection Plans': 'Extended car warranties, home warranties and protection plans.',
  'Work From Home & Other Ways To Make Money':
    'Job offers, work-from-home schemes, business opportunities, investment schemes that promise income.',
  'Yellow Pages/Directories': 'Business directory listings, fake invoices for listings or ads.',
  'Hang Up': 'The caller hung up or said nothing.',
  Scammers: 'A scam that fits no more specific subject.',
  Advertising: 'Legal but unwanted advertising.',
  Surveys: 'Surveys and polls.',
  'Financial Services': 'Loans, investments or financial products not covered elsewhere.',
  Store: 'Retail or store-related calls (orders, refunds, accounts) of doubtful origin.',
  Company: 'Impersonation of, or unwanted calls from, a company not covered elsewhere.',
  Other: 'Anything else.',
};

/** The spec's disambiguation notes, served with the category list and given to models. */
export const CATEGORY_NOTES: readonly string[] = [
  '`Advance Fee Loan` is pay a fee first and then receive a loan; `Reducing Your Debt (...)` is forgiveness, consolidation or a lower rate on an existing debt.',
  '`Tax Collection` is used for tax-authority or back-tax stories; the general imposter subject covers other agencies, businesses and family emergencies.',
  '`none` means the call is clean; it is not a complaint subject and is never filed.',
];
