import { SEAT_ATTACKS } from './attacks/seats.js';
import { attackSuite } from './suite.js';

attackSuite('hostile input on the seat streams of every game', SEAT_ATTACKS, 540_000);
