/**
 * The `live` suite's baseline: a bare `ws` server that LISTENs on one Postgres channel and
 * relays each NOTIFY payload (`<participant>:<ms>`) to the sockets that asked for that
 * participant (`/?p=<id>`). No auth, no GraphQL, no reads: the least a live relay can do.
 * Prints its port on stdout once listening.
 */
import http from 'node:http';
import pg from 'pg';
import { type WebSocket, WebSocketServer } from 'ws';

const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
const byParticipant = new Map<string, Set<WebSocket>>();
client.on('notification', (msg) => {
  const payload = msg.payload ?? '';
  const id = payload.slice(0, payload.lastIndexOf(':'));
  for (const socket of byParticipant.get(id) ?? []) socket.send(payload);
});
await client.query('listen bench_live');

const server = http.createServer();
const wss = new WebSocketServer({ server });
wss.on('connection', (socket, req) => {
  const id = new URL(req.url ?? '/', 'http://x').searchParams.get('p') ?? '';
  const set = byParticipant.get(id) ?? new Set<WebSocket>();
  set.add(socket);
  byParticipant.set(id, set);
  socket.on('close', () => set.delete(socket));
});
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
process.on('SIGTERM', () => {
  wss.close();
  server.close();
  void client.end().then(() => process.exit(0));
});
