#!/usr/bin/env node
// Launcher of the local service: registers tsx so the TypeScript sources run as they are.
import { register } from 'tsx/esm/api';

register();
await import('../src/emulator/cli.ts');
