// A hostile local program, for the squatting spec (squat.test.ts): it keeps as many connections to
// the POS API open as it can without ever logging in, pinging each with agent.info, and asks to
// pair over and over — as a program without an Origin and as a "browser" rotating its origins —
// reconnecting whatever is closed. Every 100 ms it prints what it holds (open: connections whose
// upgrade succeeded and that are not closed yet) and what it got as one JSON line.
//
// node squatter.mjs <ws-url> <idle connections> <pairing connections> <origin-rotating connections> <ping ms>
import { WebSocket } from 'ws';

const [url, idleText, pairingText, rotatingText, pingText] = process.argv.slice(2);
const idle = Number(idleText);
const pairing = Number(pairingText);
const rotating = Number(rotatingText);
const pingMs = Number(pingText);

const stats = {
  open: 0,
  opened: 0,
  closed: {},
  refusedUpgrades: 0,
  answers: 0,
  paired: 0,
  pairErrors: {},
  oldestIdleMs: 0,
};
/** When each open connection that only pings opened: the agent must not keep any past its time. */
const idleOpenedAt = new Set();
let originSeq = 0;
let stopping = false;

function keep(kind) {
  if (stopping) return;
  const headers = kind === 'rotating' ? { Origin: `http://squat-${originSeq++}.example` } : {};
  const socket = new WebSocket(url, { headers });
  let timer;
  let id = 0;
  let openedAt;
  socket.on('open', () => {
    stats.open++;
    stats.opened++;
    if (kind === 'idle') {
      openedAt = { at: Date.now() };
      idleOpenedAt.add(openedAt);
    }
    const act = () => {
      if (socket.readyState !== WebSocket.OPEN) return;
      const method = kind === 'idle' ? 'agent.info' : 'session.pair';
      const params = kind === 'idle' ? {} : { name: `Squatter ${kind}` };
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }));
    };
    act();
    timer = setInterval(act, pingMs);
  });
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    stats.answers++;
    if (message.result?.pairing_id !== undefined) stats.paired++;
    const code = message.error?.data?.code;
    if (code !== undefined) stats.pairErrors[code] = (stats.pairErrors[code] ?? 0) + 1;
  });
  socket.on('unexpected-response', () => {
    stats.refusedUpgrades++;
  });
  socket.on('error', () => {});
  socket.on('close', (code) => {
    clearInterval(timer);
    if (openedAt !== undefined) idleOpenedAt.delete(openedAt);
    if (timer !== undefined) stats.open--;
    stats.closed[code] = (stats.closed[code] ?? 0) + 1;
    // Straight back: a squatter never gives up its place.
    setTimeout(() => keep(kind), 20);
  });
}

for (let n = 0; n < idle; n++) keep('idle');
for (let n = 0; n < pairing; n++) keep('pairing');
for (let n = 0; n < rotating; n++) keep('rotating');

const report = setInterval(() => {
  const now = Date.now();
  stats.oldestIdleMs = Math.max(0, ...[...idleOpenedAt].map((opened) => now - opened.at));
  process.stdout.write(`${JSON.stringify(stats)}\n`);
}, 100);
process.stdin.on('end', () => {
  stopping = true;
  clearInterval(report);
  process.exit(0);
});
process.stdin.resume();
