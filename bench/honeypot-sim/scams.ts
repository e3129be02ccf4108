/*
 * Scripted scammers for the honeypot simulation. Every identity detail is fake (555-01xx numbers,
 * example.* domains). Each scam type has a pitch, details the scammer will give when asked, and
 * pressure lines for when the pitch has run out.
 */
export interface ScamProfile {
  type: string;
  from: string;
  name: string;
  org: string;
  callback: string;
  caseNumber: string;
  url: string;
  tool?: string;
  payment: string;
  amount: string;
  email: string;
  address: string;
  pitch: string[];
  pressure: string[];
  /** How much stalling this scammer takes before hanging up. */
  patience: number;
}

export const SCAMS: readonly ScamProfile[] = [
  {
    type: 'tech_support',
    from: '+12025550111',
    name: 'David Wilson',
    org: 'Microsoft technical support',
    callback: '202-555-0147',
    caseNumber: 'MS-44721',
    url: 'www.pc-fix-example.com',
    tool: 'AnyDesk',
    payment: 'Google Play gift cards',
    amount: 'four hundred ninety nine dollars',
    email: 'support@pc-fix-example.com',
    address: '100 Example Plaza, Redmond',
    pitch: [
      'Hello, this is David Wilson from Microsoft technical support. We detected a virus on your computer.',
      'Your computer is sending error messages to our server. Are you in front of your computer now?',
      'Please turn on the computer and open the browser.',
      'You need to download a program called AnyDesk so I can remove the virus.',
      'Now read me the nine digit code on the screen.',
      'The repair costs four hundred ninety nine dollars for the lifetime protection plan.',
      'You can pay with Google Play gift cards from any store.',
    ],
    pressure: [
      "Ma'am, the virus is stealing your bank details right now. We must act fast.",
      'Just go to the store and buy the cards, it will take ten minutes.',
      'If you hang up, your computer will be locked permanently.',
      'Read me the numbers on the back of the cards.',
    ],
    patience: 6,
  },
  {
    type: 'irs_tax',
    from: '+12025550122',
    name: 'Officer James Miller',
    org: 'the Internal Revenue Service',
    callback: '202-555-0158',
    caseNumber: 'IRS-20931',
    url: 'www.irs-settlement-example.com',
    payment: 'Target gift cards',
    amount: 'two thousand three hundred dollars',
    email: 'officer.miller@irs-settlement-example.com',
    address: '1500 Example Avenue, Washington',
    pitch: [
      'This is Officer James Miller calling from the Internal Revenue Service about your tax return.',
      'We found serious errors in your tax filings for the last three years.',
      'There is a warrant for your arrest and the police will come to your house today.',
      'To cancel the warrant you must pay the back taxes immediately.',
      'The amount due is two thousand three hundred dollars.',
      'You must pay with Target gift cards. Do not tell anyone about this call, it is confidential.',
    ],
    pressure: [
      'This is your final warning. The officers are on their way.',
      'Do you want to go to jail? Then do exactly what I say.',
      'Go to the store now and stay on the line with me.',
      'I need the card numbers in the next thirty minutes.',
    ],
    patience: 5,
  },
  {
    type: 'bank_fraud',
    from: '+12025550133',
    name: 'Sarah Collins',
    org: 'the Chase fraud department',
    callback: '202-555-0169',
    caseNumber: 'FR-88310',
    url: 'secure-verify-example.com',
    payment: 'Zelle',
    amount: 'nine hundred eighty dollars',
    email: 'fraud.team@secure-verify-example.com',
    address: '270 Example Street, New York',
    pitch: [
      'Hello, this is Sarah Collins from the Chase fraud department.',
      'We noticed a suspicious charge of nine hundred eighty dollars on your account.',
      'To block it I need to verify your identity. Can you confirm your date of birth?',
      'I will send you a verification code by text. Please read it back to me.',
      'Now I need your card number to issue a new card.',
      'To secure your money, transfer it to a safe account using Zelle.',
    ],
    pressure: [
      'The fraudsters are draining your account as we speak.',
      'Please hurry, I cannot hold the transaction much longer.',
      'Just read me the code, that is all I need.',
      'Your account will be frozen if we do not finish now.',
    ],
    patience: 6,
  },
  {
    type: 'grandchild',
    from: '+12025550144',
    name: 'Officer Mike Reynolds',
    org: 'the county public defender office',
    callback: '202-555-0171',
    caseNumber: 'CR-55219',
    url: 'bail-payments-example.com',
    payment: 'Bitcoin',
    amount: 'three thousand five hundred dollars',
    email: 'reynolds@bail-payments-example.com',
    address: '12 Example Courthouse Road, Phoenix',
    pitch: [
      'Grandma? It is me, your grandson. I am in trouble and I need your help.',
      'I was in a car accident and the police arrested me. Please do not tell mom and dad.',
      'My lawyer, Officer Mike Reynolds from the public defender office, will explain.',
      'The bail is three thousand five hundred dollars and it has to be paid today.',
      'You can pay it with Bitcoin at the machine in the grocery store.',
    ],
    pressure: [
      "Your grandson is very scared, ma'am. He needs to get out tonight.",
      'Please keep this secret, the family must not know.',
      "The judge closes the case at five o'clock.",
      'Go to the store now, I will stay on the line.',
    ],
    patience: 5,
  },
  {
    type: 'prize',
    from: '+12025550155',
    name: 'Kevin Brooks',
    org: 'Publishers Prize Center',
    callback: '202-555-0182',
    caseNumber: 'WIN-7731',
    url: 'www.prize-claim-example.com',
    payment: 'Apple gift cards',
    amount: 'three hundred fifty dollars',
    email: 'claims@prize-claim-example.com',
    address: '44 Example Boulevard, Las Vegas',
    pitch: [
      'Congratulations! This is Kevin Brooks from Publishers Prize Center. You have won two point five million dollars and a new car!',
      'To release your prize we just need to cover the processing fee and taxes.',
      'The fee is only three hundred fifty dollars, a small amount for such a big prize.',
      'You can pay the fee with Apple gift cards.',
      'Keep this between us until the prize is delivered, to avoid fraud.',
    ],
    pressure: [
      'The prize expires today if the fee is not paid.',
      'Other winners are waiting, I need your answer now.',
      "Don't you want your car and the money?",
      'Just buy the cards and read me the codes.',
    ],
    patience: 6,
  },
  {
    type: 'utility',
    from: '+12025550166',
    name: 'Brian Turner',
    org: 'City Power and Light',
    callback: '202-555-0193',
    caseNumber: 'DIS-4410',
    url: 'citypower-pay-example.com',
    payment: 'Cash App',
    amount: 'six hundred twelve dollars',
    email: 'billing@citypower-pay-example.com',
    address: '9 Example Energy Way, Dallas',
    pitch: [
      'This is Brian Turner from City Power and Light. Your electricity will be disconnected in forty five minutes.',
      'Our records show an unpaid balance of six hundred twelve dollars.',
      'A technician is already on the way to cut your power.',
      'To stop the disconnection you must pay right now with Cash App.',
    ],
    pressure: [
      'The technician is almost at your house.',
      'Do you want to sit in the dark tonight?',
      'I can only hold the order for a few more minutes.',
      'Just open the app and send the payment.',
    ],
    patience: 5,
  },
];
