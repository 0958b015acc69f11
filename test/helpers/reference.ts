/**
 * What the reference at /docs lacks, one line per gap, read from the OpenAPI document.
 */
export type Schema = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function hasExample(s: Schema): boolean {
  return s.examples !== undefined || s.example !== undefined;
}

/** Why a generated example of this leaf would be noise (`"string"`, `additionalProp1`), if it would. */
function noisyLeaf(s: Schema): string | undefined {
  if (hasExample(s) || s.enum || s.const !== undefined || s.default !== undefined) return undefined;
  if (s.type === 'string' && s.format !== 'date-time') return 'no example';
  if (s.type === 'object' && Object.keys(s.properties ?? {}).length === 0) return 'no example (open object)';
  return undefined;
}

/** Walks a schema; `exampled` is true below a node that carries a whole example. */
function walk(s: Schema | undefined, path: string, exampled: boolean, out: string[]): void {
  if (!s || typeof s !== 'object') return;
  const covered = exampled || hasExample(s);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const member of (s[key] ?? []) as Schema[]) walk(member, path, covered || (s.description !== undefined && member.type === 'null'), out);
  }
  if (s.type === 'array') walk(s.items, `${path}[]`, covered, out);
  for (const [name, prop] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
    const where = `${path}.${name}`;
    const described = prop.description !== undefined || (prop.anyOf as Schema[] | undefined)?.some((m) => m.description !== undefined && m.type !== 'null');
    if (!described) out.push(`${where}: no description`);
    walk(prop, where, covered, out);
  }
  if (!s.anyOf && !s.oneOf && !s.allOf && !covered) {
    const noise = noisyLeaf(s);
    if (noise) out.push(`${path}: ${noise}`);
  }
}

export function referenceGaps(doc: Schema): string[] {
  const gaps: string[] = [];
  const operationIds = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Schema>)) {
    for (const method of METHODS) {
      const op = item[method] as Schema | undefined;
      if (!op) continue;
      const route = `${method.toUpperCase()} ${path}`;
      const out: string[] = [];
      if (!op.operationId) out.push('no operationId');
      else if (operationIds.has(op.operationId)) out.push(`operationId ${op.operationId} also used by ${operationIds.get(op.operationId)}`);
      else operationIds.set(op.operationId, route);
      if (!op.summary) out.push('no summary');
      for (const p of (op.parameters ?? []) as Schema[]) {
        const where = `${p.in} ${p.name}`;
        if (!p.description && !p.schema?.description) out.push(`${where}: no description`);
        if (!hasExample(p) && !hasExample(p.schema ?? {}) && noisyLeaf(p.schema ?? {})) out.push(`${where}: no example`);
      }
      const bodyMedia = op.requestBody?.content?.['application/json'] as Schema | undefined;
      const body = bodyMedia?.schema as Schema | undefined;
      if (body) walk(body, 'body', hasExample(bodyMedia ?? {}), out);
      const statuses = Object.keys(op.responses ?? {});
      if (!statuses.some((s) => s.startsWith('2'))) out.push('no success response');
      for (const status of statuses) {
        const res = op.responses[status] as Schema;
        if (!res.description || res.description === 'Default Response') out.push(`response ${status}: no description (a name for the response)`);
        const media = res.content?.['application/json'] as Schema | undefined;
        const schema = media?.schema as Schema | undefined;
        // @fastify/swagger moves a whole-response example from the schema to the media type
        if (schema) walk(schema, `response ${status}`, hasExample(media ?? {}), out);
        const meta = schema?.properties?.meta as Schema | undefined;
        if (schema?.properties?.success && !(meta?.properties?.version && (meta.required as string[] | undefined)?.includes('version'))) out.push(`response ${status}: meta.version missing`);
      }
      const needsLogin = (op.security as Schema[] | undefined)?.some((r) => Object.keys(r).length > 0);
      if (needsLogin && !statuses.includes('401')) out.push('takes a token but lists no 401');
      if ((op.parameters?.length || body) && !statuses.includes('400')) out.push('takes input but lists no 400');
      if (!statuses.includes('500') && path.startsWith('/api/')) out.push('lists no 500');
      gaps.push(...out.map((line) => `${route}: ${line}`));
    }
  }
  return gaps;
}
