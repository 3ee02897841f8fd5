// parseListQuery (src/sandbox/list-query.ts), the query of any route that takes a list, on a list made
// up for the test: `venues`, optional, each a code of letters or digits, with one optional parameter.
import { describe, expect, it } from 'vitest';
import { Reject } from '../../src/sandbox/errors.js';
import { parseListQuery, type ListParameter } from '../../src/sandbox/list-query.js';

const VENUES: ListParameter<'open', false> = {
  name: 'venues', required: false, maxItems: 3, noun: 'venue', example: 'XNAS,EBS',
  item: { pattern: /^[A-Z0-9]{1,16}$/i, rule: 'a code of 1 to 16 letters or digits' }, optional: ['open'],
};

/** The 400's message for `query`, or a failure when it is accepted or fails otherwise. */
function refusal(query: string, list: ListParameter<string, boolean> = VENUES): string {
  try {
    parseListQuery(query, list);
  } catch (error) {
    expect(error).toBeInstanceOf(Reject);
    expect((error as Reject).code).toBe('INVALID_REQUEST');
    return (error as Reject).message;
  }
  throw new Error(`${query} was accepted`);
}

describe('parseListQuery', () => {
  it('reads the list upper-cased, each once, in the order given, spaces and empty parts dropped', () => {
    expect(parseListQuery('venues=xnas,%20EBS%20,,XNAS&open=yes', VENUES)).toEqual({ items: ['XNAS', 'EBS'], params: { open: 'yes' } });
  });

  it('gives no list when an optional list is left out', () => {
    expect(parseListQuery('', VENUES)).toEqual({ items: undefined, params: {} });
  });

  it.each([
    ['venues=', 'venues is empty: give at least one venue, e.g. venues=XNAS,EBS, or leave it out'],
    ['venues=A&venues=B', 'venues is given more than once'],
    ['open=1&open=2', 'open is given more than once'],
    ['venue=XNAS', 'unknown query parameter "venue"; allowed: venues, open'],
    ['venues=XNAS,X-1', 'venue 2 is not a code of 1 to 16 letters or digits'],
    ['venues=A,B,C,D', 'too many venues: at most 3 distinct venues per request'],
  ])('refuses %s: %s', (query, message) => {
    expect(refusal(query)).toBe(message);
  });

  it('counts an item named twice once against the most', () => {
    expect(parseListQuery('venues=A,B,a,C', VENUES).items).toEqual(['A', 'B', 'C']);
  });

  it('requires a required list, and reads an item with the route\'s own function', () => {
    const required: ListParameter<never, true> = { ...VENUES, optional: [], required: true, item: (item, position) => (item === 'BAD' ? `item ${position} is bad` : undefined) };
    expect(refusal('', required)).toBe('venues is required');
    expect(refusal('venues=%20', required)).toBe('venues is required: give at least one venue, e.g. venues=XNAS,EBS');
    expect(refusal('venues=OK,BAD', required)).toBe('item 2 is bad');
  });
});
