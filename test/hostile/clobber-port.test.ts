import { CLOBBER_PORT_ATTACKS } from './attacks/clobber-port.js';
import { attackSuite } from './suite.js';

attackSuite('hostile input on the clobber tournament port', CLOBBER_PORT_ATTACKS, 540_000);
