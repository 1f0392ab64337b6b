// Benchmark: GitHub's OpenAPI description (@octokit/openapi, 13 MB, OpenAPI 3.0.3) loaded and used once: a cold
// `contracts validate --spec` of the description's own example for `GET /` (read, parse with locations, upgrade to
// 3.1, index, compile the one validator needed), beside a plain `JSON.parse` of the same file, each in its own
// process: wall time and peak RSS. Three alternating runs, medians. Then one cold `contracts lint` of the whole
// description: wall time and peak RSS. `--quick`: a small 3.0 fixture (as JSON), once.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { quick, report, round, runChild, root, type ChildRun } from './bench-util.js';

interface Subject {
  file: string;
  method: string;
  path: string;
  body: unknown;
}

const dir = await mkdtemp(path.join(tmpdir(), 'contracts-bench-github-'));
const subject: Subject = quick ? await petsAsJson() : await githubRoot();
const runs = quick ? 1 : 3;

try {
  const bodyFile = path.join(dir, 'body.json');
  await writeFile(bodyFile, JSON.stringify(subject.body));
  const parses: ChildRun[] = [];
  const loads: ChildRun[] = [];
  for (let i = 0; i < runs; i++) {
    const parse = await runChild(process.execPath, [
      '-e',
      `JSON.parse(require('fs').readFileSync(${JSON.stringify(subject.file)}, 'utf8'))`,
    ]);
    if (parse.code !== 0) throw new Error(`JSON.parse of ${subject.file} failed: ${parse.stderr.slice(-300)}`);
    parses.push(parse);
    const load = await runChild(process.execPath, [
      path.join(root, 'bin/contracts.js'),
      'validate',
      '--spec',
      subject.file,
      '--method',
      subject.method,
      '--path',
      subject.path,
      '--status',
      '200',
      '--header',
      'content-type: application/json',
      '--body',
      bodyFile,
    ]);
    // A fast wrong answer must not count: the example must be judged, and conform.
    if (load.code !== 0 || !load.stdout.startsWith('✓ conforms'))
      throw new Error(
        `validate did not accept the example (exit ${load.code}): ${load.stdout.slice(-300)} ${load.stderr.slice(-300)}`,
      );
    loads.push(load);
  }
  // A cold lint of the whole description (Spectral, swagger-parser and our rules, every validator compiled): once,
  // it takes seconds. Exit 1 is its verdict (GitHub's own examples do not all match their schemas); a crash is not.
  const lint = await runChild(process.execPath, [path.join(root, 'bin/contracts.js'), 'lint', subject.file]);
  if (lint.code !== 0 && lint.code !== 1)
    throw new Error(`lint failed (exit ${lint.code}): ${lint.stderr.slice(-300)}`);
  if (!/1 spec linted/.test(lint.stderr)) throw new Error(`lint said no verdict: ${lint.stderr.slice(-300)}`);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const loadSeconds = median(loads.map((run) => run.seconds));
  const parseSeconds = median(parses.map((run) => run.seconds));
  const loadRss = median(loads.map((run) => run.peakRssMb ?? NaN));
  const parseRss = median(parses.map((run) => run.peakRssMb ?? NaN));
  report('github-load', {
    spec: quick ? 'tests/fixtures/specs/openapi-30/pets.yaml (as JSON)' : path.relative(root, subject.file),
    fileMb: round((await stat(subject.file)).size / 1e6),
    runs,
    loadAndValidateSeconds: round(loadSeconds, 3),
    loadAndValidatePeakRssMb: loadRss,
    jsonParseSeconds: round(parseSeconds, 3),
    jsonParsePeakRssMb: parseRss,
    ratioToJsonParse: round(loadSeconds / parseSeconds),
    rssRatioToJsonParse: round(loadRss / parseRss),
    runRatios: loads.map((run, i) => round(run.seconds / parses[i]!.seconds)),
    lintSeconds: round(lint.seconds, 1),
    lintPeakRssMb: lint.peakRssMb,
  });
} finally {
  await rm(dir, { recursive: true, force: true });
}

/** GET / (meta/root) of the description, with the description's own example as the body. */
async function githubRoot(): Promise<Subject> {
  const file = path.join(root, 'node_modules/@octokit/openapi/generated/api.github.com.json');
  const document = JSON.parse(await readFile(file, 'utf8')) as {
    components: { examples: { root: { value: unknown } } };
  };
  return { file, method: 'GET', path: '/', body: document.components.examples.root.value };
}

/** --quick: the small 3.0 fixture, written as JSON so that JSON.parse reads the same file. */
async function petsAsJson(): Promise<Subject> {
  const file = path.join(dir, 'pets.json');
  await writeFile(
    file,
    JSON.stringify(parse(await readFile(path.join(root, 'tests/fixtures/specs/openapi-30/pets.yaml'), 'utf8'))),
  );
  return { file, method: 'GET', path: '/pets/1', body: { petType: 'dog', name: 'Rex', weight: 30 } };
}
