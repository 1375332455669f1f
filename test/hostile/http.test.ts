import { HTTP_ATTACKS } from './attacks/http.js';
import { attackSuite } from './suite.js';

attackSuite('hostile input on the HTTP door', HTTP_ATTACKS, 540_000);
