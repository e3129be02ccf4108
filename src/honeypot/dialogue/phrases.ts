/*
 * The scripted persona's phrasebook. Placeholders: {helper} (who "handles the computer"), {bank},
 * {card_start}, {address}, {birth}, {code}, {ssn_start}, {value}, {spelled}, {name}.
 * Every line stalls or asks; none agrees to pay.
 */
import type { CallerIntent } from './intents.js';

/** What the persona asks for, by intel field it is missing. */
export type AskField =
  | 'names'
  | 'organizations'
  | 'callback_numbers'
  | 'case_numbers'
  | 'remote_tools'
  | 'urls'
  | 'payment'
  | 'amounts'
  | 'emails'
  | 'addresses';

export const ASKS: Readonly<Record<AskField, readonly string[]>> = {
  names: [
    'What did you say your name was? Could you spell it for me, slowly?',
    'Sorry, I did not catch your name. Who am I speaking to?',
    'And your name again? I like to write down who I talk to.',
    'Tell me your full name, please, first and last. I am keeping a note.',
  ],
  organizations: [
    'And which company are you calling from, exactly?',
    'Who did you say you are with? Which office is this?',
    'What is the name of your department? I want to get it right.',
    'Are you from the bank, or the government, or the computer people? I get so many calls.',
  ],
  callback_numbers: [
    'In case we get cut off, what number can I call you back on?',
    'My phone does not show your number. What is it, so I can ring you back?',
    'Give me a number for you, the cordless phone dies all the time.',
    'Before we go on, what is your direct line? {helper} will want to call you.',
  ],
  case_numbers: [
    'Do you have a badge number or a case number I should write down?',
    'Is there a reference number for all this? I keep everything in a folder.',
    'What is your employee number? My neighbour says always ask for one.',
    'Give me the case number again, slowly, I am writing it on the calendar.',
  ],
  remote_tools: [
    '{helper} handles my computer, not me. What is the program I am supposed to install?',
    'What is the name of that computer program again? I need to tell {helper}.',
    'Which program was it? There are so many little pictures on this screen.',
  ],
  urls: [
    'What is the website? Spell it out for me, letter by letter.',
    'Where do I go on the computer? What do I type in the top?',
    'Say the web address again. Is that dot com or dot org?',
  ],
  payment: [
    'Which gift card is it you need? The shop has a whole wall of them.',
    'How would I even pay that? Is it one of those apps on the phone? What is it called?',
    'What kind of card is it, the one from the supermarket or the one from the chemist?',
    'Which way do you want the money, then? I do not understand these new ways.',
  ],
  amounts: [
    'And how much is it, exactly? I need to write the number down.',
    'How much did you say? The figure went right out of my head.',
    'Is that dollars? How many?',
  ],
  emails: [
    'Can I have your email address, so {helper} can write to you?',
    'Do you have an email? {helper} says to always get it in writing.',
  ],
  addresses: [
    'Where is your office? I might rather come in person.',
    'What is the address of your office, for my records?',
  ],
};

/** Reactions to what the caller pushes for: play along, slowly, without ever handing over anything real. */
export const REACTIONS: Readonly<Record<CallerIntent, readonly string[]>> = {
  card: [
    'My card? Let me get my purse. It starts {card_start}... oh wait, that is my library card.',
    'The numbers are ever so small. I think it starts {card_start}. Hold on, my glasses.',
    'Which card, the blue one or the gold one? {helper} told me never to read those out.',
    'I have three cards in here and one of them is expired. Which bank did you say it was?',
  ],
  ssn: [
    'My social security number? It is in the drawer. Hold on... it starts {ssn_start}. No, that is not right.',
    'Why do you need that? The last fellow who asked gave me a case number first.',
    'I have it on a card somewhere. Hold on while I look through the drawer.',
  ],
  bank: [
    'My bank is {bank}. The account number is on a paper statement somewhere, let me look.',
    'I never remember the password. {helper} wrote it on a sticky note. Now where did it go?',
    'I do not do the online banking. I go into the branch on Tuesdays.',
  ],
  otp: [
    'A code? My phone beeped. It says {code}. Or was that the old message?',
    'I cannot read the message, the letters are tiny. Hold on while I find my glasses.',
    'Which message was it? I have ever so many from the pharmacy.',
  ],
  install: [
    'I am trying, but the screen has gone all blue. What am I supposed to click?',
    'I typed something in but it says page not found. Can you spell it again?',
    'It is asking me if I want to allow something. Should I say yes? What is it called again?',
    'The little wheel is spinning. It is very slow, this computer. What happens next?',
  ],
  computer: [
    'The computer is in the back room. Let me walk over there, my knees are not what they were.',
    'It is on, I think. There is a little light. What do I do now?',
    'I have got the computer open. It is asking for a password. Hold on.',
  ],
  gift_card: [
    'Gift cards? I do not have any of those here. Which ones are they, from which shop?',
    'I have found my purse, but my bus pass is in here too. Which cards was it again, and how many?',
    'I have got my coat on. What is the name of the card I am looking for?',
    'I would have to go to the shop for that, and I do not drive after dark. Which card is it exactly?',
    'The lady at the shop always asks what they are for. What am I meant to tell her?',
  ],
  pay: [
    'I would need to ask {helper} about money things. How much is it, and where does it go?',
    'I have found my chequebook. Who do I make it out to? Spell it for me.',
    'I have got my reading glasses now. So what do I do first?',
    'I do not do any of that online paying. Is there another way? What do they call it?',
    'Pay? I thought you were helping me. Who is the money for, exactly?',
  ],
  personal: [
    'My address? It is {address}. Why, are you sending something?',
    'I was born {birth}. Is that what you needed?',
    'Why do you need all that? You already called me, so you must know who I am.',
  ],
  threat: [
    'Oh my goodness. I have never even had a parking ticket. Who did you say you were?',
    'Please do not send anyone! What do I do first?',
    'Now you have got me in a state. What is your badge number, so I can tell my neighbour?',
    'Arrested? Me? Which office is this coming from?',
  ],
  secret: [
    'Not tell anyone? Well, I tell {helper} everything. Why would it be a secret?',
    'A secret? That does not sound right. Who else knows about this?',
  ],
  urgent: [
    'Slow down, please. I cannot go any faster than this.',
    'Give me a minute, I am not as quick as I used to be.',
    'All right, all right, I am listening. What is the next step?',
  ],
  presence: [
    'Yes, yes, I am here. Sorry, I was looking for a pen.',
    'I am still here. The line went funny for a moment.',
  ],
  identity: [
    'Nice to talk to you. Where are you calling from again?',
    'Oh, hello. Have you called me before? You sound familiar.',
  ],
  confirm: ['I think so. Could you say it once more, slowly?', 'Nearly. Read it out again, I only got half of it.'],
};

/** When the caller said something new the persona wants to hear again. */
export const READBACKS: readonly string[] = [
  'Let me read that back to you: {value}. Did I get that right?',
  'Hold on, I am writing it down. {value}. Is that correct?',
  'So that was {value}? Say it one more time, slowly.',
];

export const SPELL_NAME: readonly string[] = [
  'Is that {name}? How do you spell that?',
  'So your name is {name}. {spelled}. Did I get that right?',
];

/** Everyone stalls: used alongside the persona's own stalls. */
export const STALLS: readonly string[] = [
  'Hold on, somebody is at the door.',
  'Sorry, I dropped the phone. Are you still there?',
  'Could you repeat that? I did not quite follow.',
  'Let me get a pen and some paper.',
  'Hang on, I am writing this down. My handwriting is terrible.',
  'Sorry, which part was that again?',
  'Wait, I need to sit down for this.',
  'Oh dear, the pen has run out. Hold on.',
  'Sorry, the television was on. Say that again?',
  'Hold on, let me move to the other room, the signal is bad here.',
  'One moment, I have to put my tea down.',
];

/** When the persona has nothing left to ask: keep the caller talking. */
export const KEEP_GOING: readonly string[] = [
  'And then what happens?',
  'I see. So what do I do after that?',
  'Why me, though? How did you get my number?',
  'Go on, I am listening. Explain the whole thing again from the start.',
  'Will you stay on the line with me while I do it?',
  'Start again from the beginning, please. Slowly.',
  'What did you say this was about, exactly?',
  'And what happens if I do nothing?',
  'Is this going to take long? My programme starts soon.',
  'So what is the next step, then?',
  'Who else have you called today about this?',
];

/** The caller gave a number that came out short: {value} is what the persona caught, read back. */
export const REPEAT_NUMBER: Readonly<Record<'callback_numbers' | 'case_numbers', readonly string[]>> = {
  callback_numbers: [
    'I only got {value} of your number, the line is crackling. Say the whole number again, one digit at a time?',
    'Was that {value}, and then what? Give me your number again, slowly, I missed the end of it.',
    'Hold on, I have written {value} and then it went fuzzy. What is your number again, all of it?',
  ],
  case_numbers: [
    'I only got {value} of the case number. Say the whole case number again, slowly?',
    'Was your badge number {value} and something? Read me the badge number again, one digit at a time.',
  ],
};

/** The caller said their name but the persona could not make it out. */
export const REPEAT_NAME: readonly string[] = [
  'The line went funny just as you said your name. Could you spell it for me, letter by letter?',
  'Sorry, I did not catch your name at all, my hearing aid whistled. How do you spell it?',
  'Your name came out all crackly. Say your name again, slowly, and spell it?',
];

/** Said before asking again for something the caller answered but the line garbled. */
export const LINE_BROKE: readonly string[] = [
  'Sorry, the line broke up just then.',
  'You went all crackly for a second there.',
  'I missed that, this old phone.',
  'Pardon? I only heard half of that.',
];
