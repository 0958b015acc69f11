import { sql, type Kysely } from 'kysely';

/**
 * Semantic search keeps the model server's vector of each label (and search phrase) it has
 * ranked, per model, so a label is embedded once. Plain real[] works on every PostgreSQL
 * (neither the embedded server nor ours ship pgvector); candidates are few and ranked in process.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE label_embeddings (
      model text NOT NULL,
      label text NOT NULL,
      embedding real[] NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (model, label)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS label_embeddings;`.execute(db);
}
