import { RESOURCE_ATTACKS } from './attacks/index.js';
import { attackSuite } from './suite.js';

attackSuite('hostile clients against the server\'s memory, main thread, upload slots, back-off and lobby', RESOURCE_ATTACKS, 540_000);
