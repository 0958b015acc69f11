import fp from 'fastify-plugin';
import { Registry, collectDefaultMetrics, type Metric } from 'prom-client';

/** Upper bounds (seconds) of the latency histogram's buckets. */
const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5] as const;

/** What prom-client's registry reads of a metric to write it (Registry.getMetricsAsString). */
interface Written {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  values: { labels: Record<string, string | number>; value: number; metricName?: string }[];
  aggregator: 'sum';
}

/** One method's figures on one route: requests by status, and the latency histogram. */
interface MethodStats {
  byStatus: Map<number, number>;
  /** requests per bucket (not cumulative), the last one past every bound (+Inf) */
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * Request counts and latency by route pattern and method, kept in plain numbers per request and
 * written out in prom-client's form when /metrics is read. prom-client's own Counter and Histogram
 * validated and hashed the labels on every `inc` and `observe`, children or not: 5 % of the
 * service's CPU on a trending page, more on /health.
 */
class RequestStats {
  private readonly routes = new Map<string, Map<string, MethodStats>>();

  record(route: string, method: string, status: number, seconds: number): void {
    let methods = this.routes.get(route);
    if (methods === undefined) this.routes.set(route, (methods = new Map()));
    let s = methods.get(method);
    if (s === undefined) methods.set(method, (s = { byStatus: new Map(), buckets: new Array<number>(BUCKETS.length + 1).fill(0), sum: 0, count: 0 }));
    s.byStatus.set(status, (s.byStatus.get(status) ?? 0) + 1);
    let b = 0;
    while (b < BUCKETS.length && seconds > BUCKETS[b]!) b += 1;
    s.buckets[b]! += 1;
    s.sum += seconds;
    s.count += 1;
  }

  /** http_requests_total, as prom-client's Counter gives it. */
  counts(): Written {
    const values: Written['values'] = [];
    for (const [route, methods] of this.routes) {
      for (const [method, s] of methods) {
        for (const [status, n] of s.byStatus) values.push({ labels: { method, route, status: String(status) }, value: n });
      }
    }
    return { name: 'http_requests_total', help: 'HTTP requests by method, route and status', type: 'counter', values, aggregator: 'sum' };
  }

  /** http_request_duration_seconds, as prom-client's Histogram gives it (cumulative buckets, sum, count). */
  latency(): Written {
    const name = 'http_request_duration_seconds';
    const values: Written['values'] = [];
    for (const [route, methods] of this.routes) {
      for (const [method, s] of methods) {
        let below = 0;
        for (const [i, n] of s.buckets.entries()) {
          below += n;
          values.push({ labels: { le: i < BUCKETS.length ? BUCKETS[i]! : '+Inf', method, route }, value: below, metricName: `${name}_bucket` });
        }
        values.push({ labels: { method, route }, value: s.sum, metricName: `${name}_sum` });
        values.push({ labels: { method, route }, value: s.count, metricName: `${name}_count` });
      }
    }
    return { name, help: 'HTTP request latency by method and route', type: 'histogram', values, aggregator: 'sum' };
  }
}

/** A metric the registry writes from what `get` gives (the registry only reads its name, help, type and values). */
function metricOf(get: () => Written): Metric {
  const { name, help, type } = get();
  return { name, help, type, get: async () => get(), reset: () => {}, aggregator: 'sum' } as unknown as Metric;
}

/** Prometheus metrics at /metrics: request counts and latency by route (the route pattern, not the URL). */
export const metricsPlugin = fp(async (app) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const stats = new RequestStats();
  registry.registerMetric(metricOf(() => stats.counts()));
  registry.registerMetric(metricOf(() => stats.latency()));

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== '/metrics') stats.record(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}, { name: 'metrics' });
