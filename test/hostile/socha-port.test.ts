import { SOCHA_PORT_ATTACKS } from './attacks/socha-port.js';
import { attackSuite } from './suite.js';

attackSuite('hostile input on the Software-Challenge port', SOCHA_PORT_ATTACKS, 540_000);
