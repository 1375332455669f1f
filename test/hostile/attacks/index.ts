import type { Attack } from '../attack.js';
import { CLOBBER_PORT_ATTACKS } from './clobber-port.js';
import { COCO_WS_ATTACKS } from './coco-ws.js';
import { FAIRNESS_ATTACKS } from './fairness.js';
import { HTTP_ATTACKS } from './http.js';
import { RECORD_ATTACKS } from './records.js';
import { REPLAY_ATTACKS } from './replays.js';
import { SEAT_ATTACKS } from './seats.js';
import { SOCHA_PORT_ATTACKS } from './socha-port.js';

/**
 * The attacks on what the server holds and spends for a client (memory for records and unfinished
 * messages, main-thread time for replays, upload slots, back-off, lobby capacity): issue 26.
 */
export const RESOURCE_ATTACKS: readonly Attack[] = [...RECORD_ATTACKS, ...REPLAY_ATTACKS, ...FAIRNESS_ATTACKS];

/** Every attack, grouped by front door in the order of the reports. */
export const ALL_ATTACKS: readonly Attack[] = [...COCO_WS_ATTACKS, ...SEAT_ATTACKS, ...HTTP_ATTACKS, ...CLOBBER_PORT_ATTACKS, ...SOCHA_PORT_ATTACKS, ...RESOURCE_ATTACKS];
