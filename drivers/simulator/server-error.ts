import { DriverError } from '../errors.js';

/** The simulator could not be served: socat missing or failing, address in use. */
export class SimulatorServerError extends DriverError {}
