#!/usr/bin/env node
// svc-emulator: the local service's CLI, compiled to dist/ when the package is packed (a checkout without dist/ runs the source).
import { runCli } from './run.js';

await runCli('svc-emulator', '../dist/emulator/cli.js', ['hono', '@hono/node-server', 'busboy', 'zod']);
