/** Columns the sync migration (0006) adds to existing tables. */
declare module '../db/schema.js' {
  interface EnsNamesTable {
    /** Block of the newest chain state written to this row; null when never synced. */
    synced_block: number | null;
    /** Log index within `synced_block`; 2^31 − 1 for "the whole block" (a subgraph snapshot). */
    synced_log_index: number | null;
  }
}

export {};
