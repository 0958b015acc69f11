/** Style B pagination, inside `data` (listings, vote leaderboard, search…). */
export interface PageB {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasNext: boolean;
  hasPrev: boolean;
}

/** Style A pagination, beside `data` (holder and awards leaderboards). */
export interface PageA {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

export function pageB(page: number, limit: number, total: number): PageB {
  const totalPages = Math.ceil(total / limit);
  return { page, limit, total, totalPages, hasNext: page < totalPages, hasPrev: page > 1 };
}

export function pageA(page: number, limit: number, total: number): PageA {
  return { page, limit, total, pages: Math.ceil(total / limit) };
}

export function offsetOf(page: number, limit: number): number {
  return (page - 1) * limit;
}
