// The cell a config is rendered for, and its files. A base config is a function of `dataset` and
// `shot` (defaults: $FEWSHOT_DATASET and $FEWSHOT_SHOT, so `allennlp train experiments/best.jsonnet`
// with both set works); a systems table reads the cell from those variables (`cell()`). The rest comes
// from the environment as external variables (set when fewshot_parser is imported):
//   split: $FEWSHOT_SPLIT, the shuffle (or a suite's draw) whose files the run reads,
//   seed: $FEWSHOT_SEED,
//   pretrain_dir: $FEWSHOT_PRETRAIN_DIR, where shared pre-trained archives live.
// Data paths are relative to $FEWSHOT_DATA_DIR (default `data`), which the readers resolve.
{
  datasets:: ['jobs', 'geo', 'atis'],

  // A value per shot inside a settings table: c.pick([jobs, geo, atis]) with c.shots(1-shot, 2-shot).
  shots(one, two):: { 'value per shot': [one, two] },

  cell(dataset=std.extVar('FEWSHOT_DATASET'), shot=std.parseInt(std.extVar('FEWSHOT_SHOT'))):: {
    assert std.member($.datasets, dataset) : 'dataset must be jobs, geo or atis, not ' + dataset,
    assert shot == 1 || shot == 2 : 'shot must be 1 or 2, not ' + shot,
    dataset: dataset,
    shot: shot,
    split: std.parseInt(std.extVar('FEWSHOT_SPLIT')),
    seed: std.parseInt(std.extVar('FEWSHOT_SEED')),
    pretrain_dir: std.extVar('FEWSHOT_PRETRAIN_DIR'),

    // The files of a split of this dataset (and shot); `dir` is the cell's split.
    path(split, shot):: std.format('%s/lemma_data/shuffle_%d_shot_%d', [dataset, split, shot]),
    split_dir(split):: self.path(split, shot),
    dir: self.split_dir(self.split),
    train: self.dir + '/train.txt',
    support: self.dir + '/support.txt',
    query: self.dir + '/query.txt',

    shots(one, two):: $.shots(one, two),
    // This cell's entry of a row of a settings table: [jobs, geo, atis], each a value or c.shots(...).
    pick(row)::
      local value = row[std.find(dataset, $.datasets)[0]];
      if std.isObject(value) && std.objectHas(value, 'value per shot') then value['value per shot'][shot - 1] else value,
  },
}
