#!/usr/bin/env node
// svc-relay: the relay CLI (see docs/relay.md), compiled to dist/ when the package is packed (a checkout without dist/ runs the source).
import { runCli } from './run.js';

await runCli('svc-relay', '../dist/relay/cli.js', ['hono', '@hono/node-server', 'better-sqlite3', 'busboy', 'jose', 'zod']);
