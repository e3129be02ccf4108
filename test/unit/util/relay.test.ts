import { expect } from 'chai';
import { take } from 'rxjs';
import { Relay } from '../../../src/util/relay.js';

describe('Relay', () => {
  it('passes each value to every current subscriber, in subscription order', () => {
    const r = new Relay<number>();
    const seen: string[] = [];
    r.subscribe((v) => seen.push(`a${v}`));
    r.next(1);
    r.subscribe((v) => seen.push(`b${v}`));
    r.next(2);
    expect(seen).to.deep.equal(['a1', 'a2', 'b2']);
    expect(r.observed).to.equal(true);
  });

  it('lets a subscriber leave during an emission without skipping the others', () => {
    const r = new Relay<number>();
    const seen: string[] = [];
    r.pipe(take(1)).subscribe((v) => seen.push(`first${v}`));
    r.subscribe((v) => seen.push(`second${v}`));
    r.next(1);
    r.next(2);
    expect(seen).to.deep.equal(['first1', 'second1', 'second2']);
  });

  it('keeps the order when the first subscriber or a later one leaves, and takes newcomers last', () => {
    const r = new Relay<number>();
    const seen: string[] = [];
    const a = r.subscribe((v) => seen.push(`a${v}`));
    const b = r.subscribe((v) => seen.push(`b${v}`));
    r.subscribe((v) => seen.push(`c${v}`));
    a.unsubscribe();
    r.next(1);
    r.subscribe((v) => seen.push(`d${v}`));
    b.unsubscribe();
    r.next(2);
    expect(seen).to.deep.equal(['b1', 'c1', 'c2', 'd2']);
  });

  it('ends every subscriber once, and tells late subscribers the end at once', () => {
    const r = new Relay<number>();
    const ends: string[] = [];
    r.subscribe({ complete: () => ends.push('a') });
    r.complete();
    r.complete();
    r.next(3); // after the end: nobody hears it
    r.subscribe({ next: () => ends.push('late value'), complete: () => ends.push('late') });
    expect(ends).to.deep.equal(['a', 'late']);
    expect(r.closed).to.equal(true);
    expect(r.observed).to.equal(false);
  });

  it('passes an error on, also to late subscribers', () => {
    const r = new Relay<number>();
    const errors: unknown[] = [];
    r.subscribe({ error: (e) => errors.push(e) });
    r.error('boom');
    r.subscribe({ error: (e) => errors.push(e) });
    expect(errors).to.deep.equal(['boom', 'boom']);
  });

  it('hands out a read-only view that receives the same values', () => {
    const r = new Relay<number>();
    const view = r.asObservable();
    expect(view).to.not.have.property('next');
    const seen: number[] = [];
    const sub = view.subscribe((v) => seen.push(v));
    r.next(7);
    sub.unsubscribe();
    r.next(8);
    expect(seen).to.deep.equal([7]);
    expect(r.observed).to.equal(false);
  });
});
