import { createServer, type AddressInfo } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that nothing listens on, for a device that is off (a receipt printer,
 * a network PINPAD): port 1 (tcpmux), which no service of a test machine binds, so a connection
 * is refused at once, every time. A port taken from the kernel and closed again is not that: with
 * spec files running side by side, another file's server may be given the same port a moment
 * later, and the "printer that is off" answers.
 */
export const CLOSED_PORT = 1;

/**
 * A loopback port nothing listens on now, taken from the kernel and given back: for a spec whose
 * code binds it later (an agent's POS ports, a printer switched on). Not for a device that stays
 * off — that is CLOSED_PORT: another spec file may be given this port a moment later.
 */
export async function freedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
