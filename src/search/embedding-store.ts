import type { Executor } from '../db/client.js';

/** Stored vectors of `labels` for a model; labels never embedded are absent from the map. */
export async function readEmbeddings(db: Executor, model: string, labels: readonly string[]): Promise<Map<string, number[]>> {
  if (labels.length === 0) return new Map();
  const rows = await db.selectFrom('label_embeddings').select(['label', 'embedding']).where('model', '=', model).where('label', 'in', [...labels]).execute();
  return new Map(rows.map((r) => [r.label, r.embedding]));
}

export async function writeEmbeddings(db: Executor, model: string, vectors: ReadonlyMap<string, readonly number[]>): Promise<void> {
  if (vectors.size === 0) return;
  await db
    .insertInto('label_embeddings')
    .values([...vectors].map(([label, embedding]) => ({ model, label, embedding: [...embedding] })))
    .onConflict((oc) => oc.columns(['model', 'label']).doNothing())
    .execute();
}
