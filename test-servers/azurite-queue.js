// Azurite's queue service for the tests, with Azurite's own options (see README.md). It also exits when its stdin
// closes, as cosmos-server.js does, so that a test JVM that dies takes it along.
'use strict';

const exit = () => process.exit(0);
process.stdin.on('end', exit);
process.stdin.on('error', exit);
process.stdin.resume();
// Azurite closes its server on these and waits for nothing else; with the stdin listener above it would not exit.
process.once('SIGTERM', exit);
process.once('SIGINT', exit);

require('azurite/dist/src/queue/main.js');
