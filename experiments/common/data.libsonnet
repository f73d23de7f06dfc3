// Where the benchmark files of a split are, relative to $FEWSHOT_DATA_DIR (default `data`).
// The split comes from $FEWSHOT_SPLIT (default 1, set when fewshot_parser is imported) and the
// seed from $FEWSHOT_SEED, so `FEWSHOT_SPLIT=3 allennlp train ...` runs shuffle 3.
{
  split:: std.parseInt(std.extVar('FEWSHOT_SPLIT')),
  seed:: std.parseInt(std.extVar('FEWSHOT_SEED')),

  formalism(dataset):: if dataset == 'jobs' then 'prolog' else 'lambda',
  reader_type(dataset):: 'fewshot_' + { jobs: 'jobs', geo: 'geoquery', atis: 'atis' }[dataset],

  dir(dataset, shot, split):: std.format('%s/lemma_data/shuffle_%d_shot_%d', [dataset, split, shot]),
  train(dataset, shot, split):: self.dir(dataset, shot, split) + '/train.txt',
  support(dataset, shot, split):: self.dir(dataset, shot, split) + '/support.txt',
  query(dataset, shot, split):: self.dir(dataset, shot, split) + '/query.txt',

  // The paper's data settings for baselines: pt (train, then support), cb (train + support),
  // os (train + support repeated 10x for 1-shot, 5x for 2-shot).
  oversampling(shot):: if shot == 1 then 10 else 5,
  combined(dataset, shot, split, oversample=false)::
    self.train(dataset, shot, split) + '+' + self.support(dataset, shot, split)
    + (if oversample then '*' + self.oversampling(shot) else ''),

  seeds(seed):: { random_seed: seed, numpy_seed: seed, pytorch_seed: seed },
}
