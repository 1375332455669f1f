import { COCO_WS_ATTACKS } from './attacks/coco-ws.js';
import { attackSuite } from './suite.js';

attackSuite('hostile input on the coco WebSocket door', COCO_WS_ATTACKS, 540_000);
