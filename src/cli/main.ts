#!/usr/bin/env node
import { KEEP_RUNNING, runCli } from './program.js';

runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  now: () => new Date(),
}).then(
  (code) => {
    // serve keeps running; every other command ends with its exit code.
    if (code !== KEEP_RUNNING) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
