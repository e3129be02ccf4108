import { expect } from 'chai';
import { choosePersona, findPersona, personaInfo, PERSONAS } from '../../../src/honeypot/personas.js';
import { seededRng } from '../../../src/honeypot/rng.js';

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

describe('honeypot personas', () => {
  it('at least six distinct personas, each with a public face and a private script', () => {
    expect(PERSONAS.length).to.be.at.least(6);
    expect(new Set(PERSONAS.map((p) => p.id)).size).to.equal(PERSONAS.length);
    expect(new Set(PERSONAS.map((p) => p.name)).size).to.equal(PERSONAS.length);
    for (const p of PERSONAS) {
      expect(p.id, p.id).to.match(/^[a-z]+$/);
      expect(p.description.split(/(?<=\.)\s/), `${p.id}: one-line description`).to.have.length(1);
      expect(p.backstory.length, p.id).to.be.greaterThan(60);
      expect(p.manner.length, p.id).to.be.greaterThan(20);
      expect(p.greeting, p.id).to.be.a('string');
      expect(p.stalls?.length ?? 0, p.id).to.be.at.least(4);
      expect(p.language).to.match(/^en-(US|GB)$/);
      expect(personaInfo(p)).to.have.all.keys('id', 'name', 'voice', 'language', 'description');
    }
  });

  it('every detail it gives out is fake: 555-01xx or drama-range numbers, example domains, cards that fail Luhn, advertising SSNs', () => {
    for (const p of PERSONAS) {
      const d = p.fakeDetails;
      expect(d.phone!.replace(/\s/g, ''), p.id).to.match(/^\+1\d{3}5550[01]\d{2}$|^\+441632960\d{3}$/);
      expect(d.email, p.id).to.match(/@example\.(com|org)$/);
      const card = d.card_number!.replace(/\s/g, '');
      expect(card, p.id).to.match(/^\d{16}$/);
      expect(luhnValid(card), `${p.id} card must fail Luhn`).to.equal(false);
      expect(d.ssn, p.id).to.match(/^987-65-432\d$/);
    }
  });

  it('the requested persona answers; none requested: a random one, reproducible from the seed; unknown: none', () => {
    expect(choosePersona(PERSONAS, 'doris', seededRng(1))!.id).to.equal('doris');
    expect(choosePersona(PERSONAS, ' Doris ', seededRng(1))!.id).to.equal('doris');
    expect(choosePersona(PERSONAS, 'nobody', seededRng(1))).to.equal(undefined);
    const a = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((s) => choosePersona(PERSONAS, undefined, seededRng(s))!.id);
    const b = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((s) => choosePersona(PERSONAS, undefined, seededRng(s))!.id);
    expect(a).to.deep.equal(b);
    expect(new Set(a).size).to.be.greaterThan(2);
    expect(findPersona(PERSONAS, 'walter')!.name).to.equal('Walter');
  });
});
