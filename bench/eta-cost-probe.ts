import { writeFileSync } from 'node:fs';

/**
 * Loaded into `tracking eta train` by the ETA cost bench (bench/eta-cost.ts) with `node --import`: samples the
 * process's heap every 50 ms and, at exit, writes its peaks to ETA_COST_PROBE_FILE as JSON: peak RSS (the
 * kernel's, process.resourceUsage().maxRSS), peak V8 heap used and total, CPU seconds (user, system); also when
 * the bench stops it by SIGTERM.
 */

const file = process.env.ETA_COST_PROBE_FILE;
if (file) {
  let heapUsed = 0;
  let heapTotal = 0;
  const sample = () => {
    const m = process.memoryUsage();
    heapUsed = Math.max(heapUsed, m.heapUsed);
    heapTotal = Math.max(heapTotal, m.heapTotal);
  };
  setInterval(sample, 50).unref();
  // A run the bench stops at its budget (--train-budget) ends by SIGTERM: exit, so that the peaks are written.
  process.once('SIGTERM', () => process.exit(143));
  process.once('exit', () => {
    sample();
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({
        maxRssMiB: usage.maxRSS / 1024,
        heapUsedMiB: heapUsed / 2 ** 20,
        heapTotalMiB: heapTotal / 2 ** 20,
        userSeconds: usage.userCPUTime / 1e6,
        systemSeconds: usage.systemCPUTime / 1e6,
      }),
    );
  });
}
