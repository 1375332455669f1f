#!/usr/bin/env node
// A small executable for our QTP engine (the same as `coco qtp-engine`), so any QTP controller,
// such as the reference referee, can start it: node dist/src/games/quoridor/qtp-engine-cli.js
import { qtpEngineMain } from './qtp-engine-main.js';

await qtpEngineMain(process.argv.slice(2));
