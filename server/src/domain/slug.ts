/** `Camiseta Básica Algodão` → `camiseta-basica-algodao`: lowercase, accents folded, words joined by hyphens. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 255)
    .replace(/-+$/, '');
  return slug || 'item';
}
