#!/usr/bin/env node
// svc-relay: the relay CLI (see docs/relay.md). Registers tsx so the TypeScript sources run as is.
import { register } from 'tsx/esm/api';

register();
await import('../src/relay/cli.ts');
