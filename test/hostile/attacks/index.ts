import type { Attack } from '../attack.js';
import { CLOBBER_PORT_ATTACKS } from './clobber-port.js';
import { COCO_WS_ATTACKS } from './coco-ws.js';
import { HTTP_ATTACKS } from './http.js';
import { SEAT_ATTACKS } from './seats.js';
import { SOCHA_PORT_ATTACKS } from './socha-port.js';

/** Every attack, grouped by front door in the order of the reports. */
export const ALL_ATTACKS: readonly Attack[] = [...COCO_WS_ATTACKS, ...SEAT_ATTACKS, ...HTTP_ATTACKS, ...CLOBBER_PORT_ATTACKS, ...SOCHA_PORT_ATTACKS];
