// parseListQuery (src/sandbox/list-query.ts), the query of any data route read by its operation's
// descriptor, on operations made up for the test: `venues`, a list no list of which means every
// venue, with one other parameter; and `kinds`, a list that is refused when empty.
import { describe, expect, it } from 'vitest';
import { Reject } from '../../src/sandbox/errors.js';
import { parseListQuery } from '../../src/sandbox/list-query.js';
import { VENUE, type DataOperation } from '../../src/shared/operations.js';

const OPEN = { ...VENUE, noun: 'flag', example: 'yes' };
const VENUES = {
  method: 'GET', path: '/v1/venues', scope: 'market.read', noun: 'venue',
  list: { name: 'venues', items: VENUE, empty: 'all', maxItems: 3, example: 'XNAS,EBS' },
  params: { open: OPEN },
} as const satisfies DataOperation;
const KINDS = {
  ...VENUES, params: {},
  list: { name: 'kinds', items: { ...VENUE, noun: 'kind', problem: (kind: string) => (kind === 'BAD' ? 'is bad' : undefined) }, empty: 'refused', maxItems: 3, example: 'LAMP' },
} as const satisfies DataOperation;

/** The 400's message for `query`, or a failure when it is accepted or fails otherwise. */
function refusal(query: string, operation: DataOperation = VENUES): string {
  try {
    parseListQuery(query, operation);
  } catch (error) {
    expect(error).toBeInstanceOf(Reject);
    expect((error as Reject).code).toBe('INVALID_REQUEST');
    return (error as Reject).message;
  }
  throw new Error(`${query} was accepted`);
}

describe('parseListQuery', () => {
  it('reads the list upper-cased, each once, in the order given, spaces and empty parts dropped; the other parameters trimmed', () => {
    expect(parseListQuery('venues=xnas,%20EBS%20,,XNAS&open=%20yes', VENUES)).toEqual({ items: ['XNAS', 'EBS'], params: { open: 'yes' } });
  });

  it.each(['', 'venues=', 'venues=%20,,', 'open=1'])('gives no list, every item, for %j when no list means every item', (query) => {
    expect(parseListQuery(query, VENUES).items).toBeUndefined();
  });

  it.each([
    ['venues=A&venues=B', 'venues is given more than once'],
    ['open=1&open=2', 'open is given more than once'],
    ['open=', 'open is empty: a flag is 1 to 64 visible ASCII characters, e.g. open=yes'],
    ['open=a%20b', 'open contains a character other than visible ASCII: a flag is 1 to 64 visible ASCII characters, e.g. open=yes'],
    ['venue=XNAS', 'unknown query parameter "venue"; allowed: venues, open'],
    ['venues=XNAS,X%01', 'venue 2 contains a control character'],
    [`venues=XNAS,${'A'.repeat(65)}`, 'venue 2 is longer than 64 characters'],
    ['venues=A,B,C,D', 'too many venues: at most 3 distinct venues per request'],
  ])('refuses %s: %s', (query, message) => {
    expect(refusal(query)).toBe(message);
  });

  it('counts an item named twice once against the most, which the route may set', () => {
    expect(parseListQuery('venues=A,B,a,C', VENUES).items).toEqual(['A', 'B', 'C']);
    expect(parseListQuery('venues=A,B,a', VENUES, 2).items).toEqual(['A', 'B']);
    expect(() => parseListQuery('venues=A,B,C', VENUES, 2)).toThrow('too many venues: at most 2 distinct venues per request');
  });

  it('refuses no list, or an empty one, when the descriptor says so, and reads each item by its rule\'s problem()', () => {
    expect(refusal('', KINDS)).toBe('kinds is required');
    expect(refusal('kinds=%20', KINDS)).toBe('kinds is required: give at least one kind, e.g. kinds=LAMP');
    expect(refusal('kinds=OK,BAD', KINDS)).toBe('kind 2 is bad');
    expect(parseListQuery('kinds=ok', KINDS)).toEqual({ items: ['OK'], params: {} });
  });
});
