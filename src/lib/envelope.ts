/** The success envelope of the interface: `{success: true, data, meta: {timestamp, version}}`. */
export const API_VERSION = '1.0.0';

export function meta<M extends object>(extra?: M): { timestamp: string; version: string } & M {
  return { timestamp: new Date().toISOString(), version: API_VERSION, ...(extra ?? ({} as M)) };
}

export function ok<D>(data: D): { success: true; data: D; meta: { timestamp: string; version: string } };
export function ok<D, M extends object>(data: D, extra: M): { success: true; data: D; meta: { timestamp: string; version: string } & M };
export function ok<D, M extends object>(data: D, extra?: M) {
  return { success: true as const, data, meta: meta(extra) };
}
