#!/usr/bin/env node
// The `tessera` command (demo, worker). The package ships TypeScript: register tsx, then run
// the CLI from its source.

import { register } from 'tsx/esm/api';

register();
await import(new URL('../src/cli/main.ts', import.meta.url).href);
