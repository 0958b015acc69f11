import fp from 'fastify-plugin';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics at /metrics: request counts and latency by route (the route pattern, not the URL). */
export const metricsPlugin = fp(async (app) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  /** One recorder per route pattern, holding its label children: no label hashing per request. */
  const recorder = (route: string) => {
    const children = new Map<string, { count: Counter.Internal; time: Histogram.Internal<'method' | 'route'> }>();
    return (method: string, status: number, seconds: number) => {
      const key = method + status;
      let c = children.get(key);
      if (!c) {
        c = { count: requests.labels(method, route, String(status)), time: duration.labels(method, route) };
        children.set(key, c);
      }
      c.count.inc();
      c.time.observe(seconds);
    };
  };
  const recorders = new Map<string, ReturnType<typeof recorder>>();

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== '/metrics') {
      let record = recorders.get(route);
      if (!record) {
        record = recorder(route);
        recorders.set(route, record);
      }
      record(request.method, reply.statusCode, reply.elapsedTime / 1000);
    }
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}, { name: 'metrics' });
