// Scores `contracts diff` on oasdiff's checker corpus (../shared/corpora/oasdiff, or --corpus DIR): for each spec
// pair, whether our verdict (breaking: some error-level change) is the one a client of the API would give (the
// manifest's `expected`; `either` accepts both). Prints the score, the pairs we get wrong with the rules we said,
// and writes them as JSON with --out. The corpus stays where it is: nothing of it enters this repository.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { diffSpecs } from '../src/core/diff/diff-specs.js';
import { loadSpec } from '../src/core/load-spec.js';

export interface PairScore {
  pair: string;
  expected: 'breaking' | 'non-breaking' | 'either';
  oasdiff: string;
  ours: 'breaking' | 'non-breaking' | 'refused';
  right: boolean;
  rules: string[];
  note: string;
}

// CONTRACTS_OASDIFF_CORPUS names it elsewhere: the mutation run's tests run from a copy of the checkout.
export const defaultCorpus =
  process.env.CONTRACTS_OASDIFF_CORPUS || path.resolve(import.meta.dirname, '../../shared/corpora/oasdiff');

/** Every pair of the manifest, diffed and scored. */
export async function scoreCorpus(corpus: string): Promise<PairScore[]> {
  const lines = readFileSync(path.join(corpus, 'manifest.tsv'), 'utf8').trim().split('\n').slice(1);
  const scores: PairScore[] = [];
  for (const line of lines) {
    const [pair, base, head, expected, oasdiff, , note] = line.split('\t') as string[];
    let ours: PairScore['ours'];
    let rules: string[] = [];
    try {
      const changes = diffSpecs(
        await loadSpec(path.join(corpus, base!), base),
        await loadSpec(path.join(corpus, head!), head),
      );
      ours = changes.some((change) => change.level === 'error') ? 'breaking' : 'non-breaking';
      rules = [...new Set(changes.map((change) => `${change.rule}:${change.level}`))];
    } catch (error) {
      ours = 'refused';
      rules = [(error as Error).message.slice(0, 200)];
    }
    scores.push({
      pair: pair!,
      expected: expected as PairScore['expected'],
      oasdiff: oasdiff!,
      ours,
      right: ours !== 'refused' && (expected === 'either' || ours === expected),
      rules,
      note: note ?? '',
    });
  }
  return scores;
}

if (import.meta.filename === path.resolve(process.argv[1] ?? '')) {
  const { values } = parseArgs({ options: { corpus: { type: 'string' }, out: { type: 'string' } } });
  const scores = await scoreCorpus(path.resolve(values.corpus ?? defaultCorpus));
  const wrong = scores.filter((score) => !score.right);
  for (const score of wrong)
    console.log(
      `✗ ${score.pair}: expected ${score.expected}, ours ${score.ours} (${score.rules.join(', ') || 'no change'})`,
    );
  console.log(`\n${scores.length - wrong.length} of ${scores.length} pairs get the client's verdict`);
  if (values.out) writeFileSync(values.out, JSON.stringify(scores, null, 2));
}
