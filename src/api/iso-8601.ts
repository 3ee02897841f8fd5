// The one test a quote's timestamp must pass to be read at all (parse-quotes.ts): ISO 8601 with
// every field in range, what Date.parse reads as an instant on every Node (the table's ages and
// --max-age read it so). One pattern instead of the form and then Date.parse: Date.parse costs
// twice the pattern, and at 10,000 quotes that is 3 ms. It takes a 31 February, as Date.parse does;
// quoteProblems refuses that (quote-checks.ts).
const ISO_8601 = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?|24:00(?::00(?:\.0+)?)?)(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/;

export function isTimestamp(text: string): boolean {
  return ISO_8601.test(text);
}
