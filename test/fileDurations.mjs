// Writes test/fileDurations.json (seconds per test file of 0.5 s or more, longest first) from a vitest JSON report of a
// full run: the order test/durationSequencer.ts starts files in on a clean checkout.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const report = process.argv[2];
if (!report) {
  console.error('usage: node test/fileDurations.mjs REPORT.json');
  process.exit(2);
}
const root = resolve(import.meta.dirname, '..');
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const durations = testResults
  .map((file) => [relative(root, file.name), Math.round((file.endTime - file.startTime) / 100) / 10])
  .filter(([, seconds]) => seconds >= 0.5)
  .sort((a, b) => b[1] - a[1]);
writeFileSync(resolve(root, 'test/fileDurations.json'), `${JSON.stringify(Object.fromEntries(durations), null, 2)}\n`);
console.log(`test/fileDurations.json: ${durations.length} files`);
