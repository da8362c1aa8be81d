import { describe, expect, it } from 'vitest';
import { contractText } from '../contract.ts';
import { slugify } from './slug.ts';

/** A slug a partner may send, as the contract's `ProductUpdate` › `slug` › `pattern` states it. */
const SLUG_PATTERN = new RegExp(contractText('#/components/schemas/ProductUpdate/properties/slug/pattern'), 'u');

const DERIVED: [string, string][] = [
  ['Camiseta Básica Algodão', 'camiseta-basica-algodao'],
  ['  --Caneca!!  Azul (P)--  ', 'caneca-azul-p'],
  ['Straße Øl Æble', 'strasse-ol-aeble'],
  ['Ｆｕｌｌ ﬁt', 'full-fit'],
  ['Футболка синяя', 'futbolka-sinyaya'],
  ['Σουβλάκι', 'soyvlaki'],
  ['日本語', 'ri-ben-yu'],
  ['日本人', 'ri-ben-ren'],
  ['한국어', 'hangugeo'],
  ['¡¿!?', 'item'],
  ['😀😀😀', 'item'],
];

describe('slugify', () => {
  it.each(DERIVED)('%s → %s', (name, slug) => expect(slugify(name)).toBe(slug));

  it('derives only slugs the contract lets a partner send back', () => {
    for (const [name] of DERIVED) expect(slugify(name)).toMatch(SLUG_PATTERN);
  });

  it('keeps at most 255 characters and never ends on the hyphen where it cut', () => {
    expect(slugify('a'.repeat(300))).toBe('a'.repeat(255));
    expect(slugify(`${'a'.repeat(254)} b`)).toBe('a'.repeat(254));
  });
});
