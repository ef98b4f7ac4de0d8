/**
 * Child process of the supervisor PIN's crash spec: an agent in training with no PIN stored,
 * whose window gets MAX_FAILURES wrong PINs, prints the lock it reached, and waits to be killed.
 * Run with `node --import tsx supervisor-pin-crash-child.ts <home>`.
 */
import { fileIntegrityKey } from '../../../main/agent/integrity-key.js';
import { MAX_FAILURES, SupervisorPin } from '../../../main/agent/supervisor-pin.js';
import { integrityKeyPath, supervisorPinPath } from '../../../main/paths.js';

const home = process.argv[2];
if (home === undefined) throw new Error('usage: supervisor-pin-crash-child.ts <home>');

const pin = new SupervisorPin(supervisorPinPath(home), {
  training: true,
  integrity: fileIntegrityKey(integrityKeyPath(home)),
});
for (let attempt = 0; attempt < MAX_FAILURES; attempt++) pin.check('0000', 'window');
process.stdout.write(`${JSON.stringify(pin.lock('window'))}\n`);
// Alive until the spec's SIGKILL: nothing after the last check may be what keeps the lock.
setInterval(() => {}, 60_000);
