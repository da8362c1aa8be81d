// Kinds of records, found generically: the creator of a kind `product` is the operation answering 201 with
// `data.product`; a field such as `productId`, `triggerProductIds` or `template_id` refers to a kind.
import { type Contract, isObject, type Json, type Operation } from './contract.ts';

/** Kinds of records and the operation that creates each (from the 201 response's `data.<kind>`). */
export function creators(contract: Contract): Map<string, Operation> {
  const out = new Map<string, Operation>();
  for (const op of contract.operations) {
    const created = op.responses.get('201');
    if (op.method !== 'post' || !created?.schema) continue;
    const schema = contract.deref(created.schema as Json);
    const data = isObject(schema) && isObject(schema.properties) ? contract.deref(schema.properties.data) : undefined;
    const props = isObject(data) && isObject(data.properties) ? Object.keys(data.properties) : [];
    if (props.length !== 1) continue;
    const kind = props[0] as string;
    const existing = out.get(kind);
    // a v1 creator is preferred over an admin one (fewer assumptions about the target)
    if (!existing || (existing.scheme === 'AdminToken' && op.scheme !== 'AdminToken')) out.set(kind, op);
  }
  return out;
}

/**
 * The v1 operation that deletes each kind of record: `DELETE …/{<kind>Id}`. Admin operations are left out: the
 * records they would delete (keys) are not the partner's store's.
 */
export function deleters(contract: Contract): Map<string, Operation> {
  const out = new Map<string, Operation>();
  for (const op of contract.operations) {
    const kind = /\/\{(\w+)Id\}$/.exec(op.path)?.[1];
    if (op.method === 'delete' && op.scheme !== 'AdminToken' && kind) out.set(kind, op);
  }
  return out;
}

/** The kind a field or parameter name refers to: productId → product, triggerProductIds → product, template_id → template. */
export function kindOf(name: string, known: Set<string>): string | undefined {
  const stem = /^(.*?)(?:Ids?|_ids?)$/.exec(name)?.[1];
  if (!stem) return undefined;
  const words = stem.split(/(?=[A-Z])/);
  for (let i = 0; i < words.length; i++) {
    const candidate = words.slice(i).join('');
    const kind = candidate.charAt(0).toLowerCase() + candidate.slice(1);
    if (known.has(kind)) return kind;
  }
  return known.has(stem) ? stem : undefined;
}
