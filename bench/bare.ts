/**
 * The bench's floor: a bare Fastify route answering what `/health` answers, with no plugin or hook.
 * `/health` is measured against it in the same run. Prints the port once listening.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'healthy', timestamp: new Date().toISOString(), version: '1.0.0' }));
await app.listen({ host: '127.0.0.1', port: 0 });
console.log((app.server.address() as { port: number }).port);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
