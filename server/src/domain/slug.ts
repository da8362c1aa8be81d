import { transliterate } from 'transliteration';
import { contractCount } from '../contract.ts';

/** The longest slug: the contract's `ProductUpdate` › `slug` › `maxLength` (a category's slug is derived alike). */
const SLUG_LENGTH = contractCount('#/components/schemas/ProductUpdate/properties/slug/maxLength');

/**
 * `Camiseta Básica Algodão` → `camiseta-basica-algodao`, `Футболка синяя` → `futbolka-sinyaya`, `日本語` → `ri-ben-yu`:
 * written in Latin letters (transliterated, accents folded), lowercase, each run of anything but letters and digits
 * one hyphen, none at either end; a name with neither derives `item`.
 */
export function slugify(text: string): string {
  const slug = transliterate(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_LENGTH)
    .replace(/-+$/, '');
  return slug || 'item';
}
