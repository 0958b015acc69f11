import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { splicingRawJson, withRawSlots } from '../lib/raw-json.js';
import type { FastifySchemaCompiler, FastifySerializerCompiler, FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Validate = ReturnType<FastifySchemaCompiler<unknown>>;

/**
 * Fastify's own compilers (ajv for requests, fast-json-stringify for responses, with the options
 * given to Fastify), each route schema compiled when it is first used instead of when the app is
 * built. Compiling all of them up front costs about 2.5 s of CPU per app (some 140 operations, a
 * serializer per declared status), most of it for error statuses a process may never send; the
 * first request of a route pays its own few milliseconds instead. Validation and serialization
 * are exactly Fastify's: the compiled function is called as is, its `errors` passed on; a
 * response schema with raw JSON slots (lib/raw-json.ts) is compiled with `{}` in each and its
 * output spliced, as UTF-8 bytes (Fastify sends a serializer's Buffer as it sends a string, its
 * Content-Length the buffer's length).
 * `compileAll` compiles every schema not compiled yet (a test does, so a schema that cannot
 * compile fails there and not on the first request that needs it).
 */
export function lazySchemaCompilers(): { compilersFactory: CompilersFactory; compileAll(): void } {
  const pending = new Set<() => unknown>();
  /** `compile()` on the first call (or at compileAll), then its result. */
  const lazily = <T>(compile: () => T): (() => T) => {
    let value: T | undefined;
    const ready = () => {
      pending.delete(ready);
      return (value ??= compile());
    };
    pending.add(ready);
    return () => value ?? ready();
  };
  const validators = AjvCompiler();
  const serializers = SerializerSelector();
  const buildValidator = (externalSchemas: unknown, options: unknown): FastifySchemaCompiler<unknown> => {
    const compile = validators(externalSchemas as Parameters<typeof validators>[0], options as Parameters<typeof validators>[1]) as unknown as FastifySchemaCompiler<unknown>;
    return (route) => {
      const compiled = lazily(() => compile(route));
      const lazy: Validate = (data) => {
        const validate = compiled();
        const result = validate(data);
        lazy.errors = validate.errors;
        return result;
      };
      return lazy;
    };
  };
  const buildSerializer = (externalSchemas: unknown, options: unknown): FastifySerializerCompiler<unknown> => {
    const compile = serializers(externalSchemas, options as Parameters<typeof serializers>[1]) as FastifySerializerCompiler<unknown>;
    return (route) => {
      const slotted = withRawSlots(route.schema);
      const compiled = lazily((): ((doc: unknown) => string | Buffer) => (slotted === undefined ? compile(route) : splicingRawJson(compile({ ...route, schema: slotted }))));
      // Fastify's type says string; its reply writes a Buffer the same way (onSendEnd takes either)
      return (doc) => compiled()(doc) as string;
    };
  };
  // Fastify's option types name ajv's own function types; what Fastify calls is the shape above.
  return {
    compilersFactory: { buildValidator, buildSerializer } as unknown as CompilersFactory,
    compileAll: () => { for (const ready of [...pending]) ready(); },
  };
}
