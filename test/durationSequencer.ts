// The order test files start in: vitest's own (the group, then the project, then failed and longest first from this
// machine's earlier runs) when it has run them here before; on a clean checkout (CI), where it has no such results and
// would start the largest files first, the longest files of a full run (test/fileDurations.json, seconds) start first,
// so that a long file does not start last and hold the whole run up. Regenerate the table after a full run with
// `npm test -- --outputFile.json=report.json && node test/fileDurations.mjs report.json`.
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ROOT = resolve(import.meta.dirname, '..');
const DURATIONS = JSON.parse(readFileSync(resolve(ROOT, 'test/fileDurations.json'), 'utf8')) as Record<string, number>;

/** The sequencer of vitest.config.ts. */
export class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = files.filter((f) =>
      this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`),
    ).length;
    if (known * 2 >= files.length) return super.sort(files);
    const seconds = (f: TestSpecification) => DURATIONS[relative(ROOT, f.moduleId)] ?? 0;
    // Within a group, the projects' files interleave (unit and unit-isolated share the workers): a project's short
    // files then fill the end of the run rather than its own files all coming last.
    return [...files].sort(
      (a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || seconds(b) - seconds(a),
    );
  }
}
