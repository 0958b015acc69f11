import type { FastifyReply } from 'fastify';
import { API_VERSION } from '../lib/envelope.js';

type Schema = { [key: string]: unknown };

const JSON_TYPE = 'application/json; charset=utf-8';
const HEAD = Buffer.from('{"success":true,"data":');

/** The JSON of each kept answer, by the answer object and the schema it was written by. */
const written = new WeakMap<object, { schema: Schema; json: Buffer }>();
/** The `data` schema of each route's 200 envelope, by the envelope schema. */
const dataSchemas = new WeakMap<object, Schema>();

function dataSchemaOf(reply: FastifyReply): Schema {
  const envelope = (reply.request.routeOptions.schema?.response as Record<number, Schema> | undefined)?.[200];
  if (envelope === undefined) throw new Error(`${reply.request.routeOptions.url} declares no 200 response`);
  let data = dataSchemas.get(envelope);
  if (data === undefined) {
    data = (envelope.properties as Record<string, Schema> | undefined)?.data;
    if (data === undefined) throw new Error(`the 200 response of ${reply.request.routeOptions.url} is not an envelope`);
    dataSchemas.set(envelope, data);
  }
  return data;
}

/**
 * Sends an answer the service keeps (`answersOf`: the same object to every request until the
 * rollups change) in the success envelope. Its `data` is written once per answer object, by the
 * route's own 200 schema (the serializer Fastify would use for it: the same fields, the same
 * strings), and only the envelope, with this response's timestamp, per request. A large kept
 * answer (a 30-point chart, a feed page) then costs a request what a small one does. The bytes
 * are kept and sent as a Buffer: a string would be measured (Buffer.byteLength, for
 * Content-Length) and encoded again on every request.
 */
export function sendKept(reply: FastifyReply, data: object): FastifyReply {
  const schema = dataSchemaOf(reply);
  let kept = written.get(data);
  if (kept === undefined || kept.schema !== schema) {
    kept = { schema, json: Buffer.from(reply.serializeInput(data as Schema, schema)) };
    written.set(data, kept);
  }
  const meta = Buffer.from(`,"meta":{"timestamp":"${new Date().toISOString()}","version":"${API_VERSION}"}}`);
  return reply.type(JSON_TYPE).send(Buffer.concat([HEAD, kept.json, meta]));
}
