// The JSON document a declared resource's --json writes (render/serialize.ts, jsonText), as an
// object for a tool's structured content: the same members in the same order, read through the same
// declaration (render/fields.ts: which members come before and after the items, which fields each
// item has), with every price and decimal the string of the digits the CLI writes as a JSON number,
// so that no JSON reader of the client rounds it to a double.
import type { DocumentDeclaration, DocumentMember, Field } from '../../render/fields.js';

/** `document` as `--json` writes it with `fields`, its decimals as strings (null where the CLI writes null). */
export function jsonDocument<T, D>(document: D, declaration: DocumentDeclaration<T, D>, fields: readonly Field<T>[], now: number): Record<string, unknown> {
  const source = document as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // A member as JSON.stringify writes it (decimal text is text already): undefined ones left out, at any depth.
  const members = (list: readonly DocumentMember<D>[] | undefined) => {
    for (const member of list ?? []) {
      const name = typeof member === 'string' ? member : member.name;
      if (source[name] !== undefined) out[name] = JSON.parse(JSON.stringify(source[name])) as unknown;
    }
  };
  members(declaration.before);
  const items = (source[declaration.items] as readonly T[] | undefined) ?? [];
  out[declaration.items] = items.map((item) => Object.fromEntries(fields.map((field) => [field.name, fieldValue(field, item, now)])));
  members(declaration.after);
  return out;
}

/** A field as jsonText writes it, but a price or decimal as its text: '' is null for a decimal, a boolean or a nullable field. */
function fieldValue<T>(field: Field<T>, item: T, now: number): string | boolean | null {
  const value = field.read(item, now);
  if (field.kind === 'decimal') return value === '' ? null : value;
  if (field.kind === 'boolean' && (value === 'true' || value === 'false' || value === '')) return value === '' ? null : value === 'true';
  if (value === '' && field.nullable === true) return null;
  return value;
}
