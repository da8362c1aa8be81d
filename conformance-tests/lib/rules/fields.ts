// Looking up a body field's schema in an operation's request body: whether it is required, whether its
// description hints at a rule between fields.
import type { Json, Operation } from '../contract.ts';
import type { Session } from '../session.ts';

export function fieldSchema(s: Session, op: Operation, field: string): Record<string, Json> | undefined {
  let at = s.contract.deref(op.requestBody?.schema as Json) as Json | undefined;
  for (const part of field.split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    const props = s.contract.deref((at as Record<string, Json>).properties) as Record<string, Json> | undefined;
    at = /^\d+$/.test(part) ? s.contract.deref((at as Record<string, Json>).items) : s.contract.deref(props?.[part]);
  }
  return at !== null && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, Json>) : undefined;
}

function parentSchema(s: Session, op: Operation, field: string): Record<string, Json> | undefined {
  const parts = field.split('.');
  return parts.length > 1
    ? fieldSchema(s, op, parts.slice(0, -1).join('.'))
    : (s.contract.deref(op.requestBody?.schema as Json) as Record<string, Json>);
}

/** Whether the field's description (or its parent's) names another rule: another field or a 400 of its own. */
export function crossFieldHint(s: Session, op: Operation, field: string): boolean {
  const description = String(fieldSchema(s, op, field)?.description ?? '');
  const name = field.split('.').at(-1) as string;
  return (
    /`[A-Za-z_]+`|\b400\b/.test(description) || String(parentSchema(s, op, field)?.description ?? '').includes(name)
  );
}

export function isRequired(s: Session, op: Operation, field: string): boolean {
  const parent = parentSchema(s, op, field);
  return Array.isArray(parent?.required) && parent.required.includes(field.split('.').at(-1) as string);
}

export function hasPath(value: Json, parts: string[]): boolean {
  let at: Json | undefined = value;
  for (const part of parts) {
    if (Array.isArray(at)) at = at[Number(part)];
    else if (at !== null && typeof at === 'object') at = (at as Record<string, Json>)[part];
    else return false;
    if (at === undefined) return false;
  }
  return true;
}

/** The create operation of the record kind an update's path names (`/kits/{kitId}` → `POST /kits`). */
export function creatorOf(s: Session, op: Operation): Operation | undefined {
  return [...s.kinds.values()].find((k) => k.path === op.path.replace(/\/\{[^}]+\}$/, ''));
}

/** The top-level properties of an operation's request body schema. */
export function bodyProperties(s: Session, op: Operation): string[] {
  return Object.keys((s.contract.deref(op.requestBody?.schema as Json) as { properties?: object }).properties ?? {});
}
