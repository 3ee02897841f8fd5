#!/usr/bin/env node
import { launch } from '../dist/cli/launch.js';
process.exitCode = await launch(process.argv.slice(2));
