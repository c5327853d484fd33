// Vite serves demo/ in development (`npm start`, with /svc proxied to the relay) and builds dist/.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'demo',
  esbuild: { tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } } },
  server: { host: '127.0.0.1' },
});
