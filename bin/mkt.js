#!/usr/bin/env node
// V8's compile cache (Node >= 22.1) halves the cost of loading mkt on every run after the first.
import module from 'node:module';
module.enableCompileCache?.();
const { main } = await import('../dist/cli/main.js');
process.exitCode = await main(process.argv.slice(2));
