/** `categories`, as server/migrations/001_core.sql creates it. */
export interface CategoriesTable {
  id: string;
  store_id: string;
  name: string;
  slug: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

/** `category_products`: which products a category lists (assignCategoryProducts). */
export interface CategoryProductsTable {
  category_id: string;
  product_id: string;
  created_at: string;
}

export interface CategoryTables {
  categories: CategoriesTable;
  category_products: CategoryProductsTable;
}
