// The paper's three data settings for the baselines (Sec. 5), for any system:
//   pt: pre-train on train.txt (one archive per dataset and system, shared by every split; the 1- and
//       2-shot configs read their own shot's train.txt, so a change of shot pre-trains it again, even
//       where the two files are the same), then fine-tune on the split's support set and evaluate on
//       its query set;
//   cb: train on train + support, evaluate on the query set;
//   os: like cb with the support set repeated 10 times (1-shot) or 5 times (2-shot).
// Unseen output tokens in pt are handled by vocabulary extension at fine-tuning (the model's
// `extend_embedder_vocab` adds randomly initialised rows, from the support set only), as ProtoParser
// adds action rows; in cb and os the vocabulary is built over train + support up front, and only from
// them (`datasets_for_vocab_creation`): AllenNLP's default would add the query file's words and LF
// symbols too, which the query set alone shows (issue 52).
//
// A system is an object with
//   name: names the shared pre-trained archive (<dataset>-<name>-pt),
//   reader(dataset), model(dataset, finetuning: bool), epochs(dataset), trainer(epochs, lr) (lr is
//   null except when fine-tuning in pt), batch_size, and optionally loader(dataset), fields added to
//   the data loader of (pre-)training on train.
local data = import 'data.libsonnet';
local fewshot = import 'fewshot.libsonnet';

{
  settings:: ['pt', 'cb', 'os'],

  // Fine-tuning in pt follows ProtoParser's per-dataset fine-tuning schedule (reference.md), so that
  // every system gets the same support-set budget.
  finetune(dataset, shot):: fewshot.defaults.finetune[dataset][std.toString(shot)],

  local plain(system, dataset, train, epochs, seed) = data.seeds(seed) {
    dataset_reader: system.reader(dataset),
    train_data_path: train,
    model: system.model(dataset, false),
    data_loader: { batch_size: system.batch_size, shuffle: true } + (if std.objectHasAll(system, 'loader') then system.loader(dataset) else {}),
    validation_data_loader: { batch_size: 64, shuffle: false },
    // fewshot_random_state: an interrupted pt pre-training resumes exactly (see ensure_pretrained).
    trainer: system.trainer(epochs, null) + { callbacks+: [{ type: 'fewshot_random_state' }] },
  },

  experiment(system, dataset, shot, setting, split=data.split, seed=data.seed)::
    assert std.member($.settings, setting) : 'setting must be pt, cb or os, not ' + setting;
    if setting == 'pt' then (
      local ft = $.finetune(dataset, shot);
      data.seeds(seed) {
        type: 'fewshot_pretrain_finetune',
        pretrained_archive: std.extVar('FEWSHOT_PRETRAIN_DIR') + '/' + dataset + '-' + system.name + '-pt/model.tar.gz',
        pretraining: plain(system, dataset, data.train(dataset, shot, 0), system.epochs(dataset), seed),
        finetune_seed: seed,
        dataset_reader: system.reader(dataset),
        train_data_path: data.support(dataset, shot, split),
        test_data_path: data.query(dataset, shot, split),
        evaluate_on_test: true,
        model: system.model(dataset, true),
        data_loader: { batch_size: if dataset == 'atis' && shot == 1 then 1 else 2, shuffle: true },
        validation_data_loader: { batch_size: 64, shuffle: false },
        // fewshot_random_state: `allennlp train --recover` of an interrupted fine-tuning resumes exactly.
        trainer: system.trainer(ft.epochs, ft.lr) + { callbacks+: [{ type: 'fewshot_random_state' }] },
      }
    ) else plain(system, dataset, data.combined(dataset, shot, split, oversample=(setting == 'os')), system.epochs(dataset), seed) {
      test_data_path: data.query(dataset, shot, split),
      evaluate_on_test: true,
      datasets_for_vocab_creation: ['train'],
    },
}
