// Coarse2Fine baseline, setting pt: pre-train on train.txt, fine-tune on the support set.
// Dataset and shot: arguments, by default $FEWSHOT_DATASET and $FEWSHOT_SHOT (common.libsonnet).
function(dataset=std.extVar('FEWSHOT_DATASET'), shot=std.parseInt(std.extVar('FEWSHOT_SHOT')))
  local c = (import 'common.libsonnet').cell(dataset, shot);
  // Per dataset: [jobs, geo, atis]; c.shots(1-shot, 2-shot) where the shots differ.
  local s = {
    dataset_reader_formalism:       c.pick(['prolog', 'lambda', 'lambda']),
    data_loader_batch_size:         c.pick([2, 2, c.shots(1, 2)]),
    pretraining_trainer_num_epochs: c.pick([60, 60, 30]),
    trainer_num_epochs:             c.pick([60, c.shots(20, 80), c.shots(40, 30)]),
    trainer_optimizer_lr:           c.pick([0.0005, c.shots(0.001, 0.0005), c.shots(0.0005, 0.001)]),
  };
  local model = {
    type: 'coarse2fine',
    dropout: 0.3,
    encoder: { type: 'lstm', bidirectional: true, hidden_size: 128, input_size: 200 },
    max_sketch_steps: 100,
    sketch_embedding_dim: 128,
    source_embedder: { token_embedders: { tokens: { type: 'embedding', embedding_dim: 200 } } },
  };
  local dataset_reader = { type: 'fewshot_coarse2fine', formalism: s.dataset_reader_formalism };
  local validation_data_loader = { batch_size: 64, shuffle: false };
  {
    type: 'fewshot_pretrain_finetune',
    data_loader: { batch_size: s.data_loader_batch_size, shuffle: true },
    dataset_reader: dataset_reader,
    evaluate_on_test: true,
    finetune_seed: c.seed,
    model: model,
    numpy_seed: c.seed,
    pretrained_archive: c.pretrain_dir + '/' + c.dataset + '-coarse2fine-pt/model.tar.gz',
    pretraining: {
      data_loader: { batch_size: 32, shuffle: true },
      dataset_reader: dataset_reader,
      model: model,
      numpy_seed: c.seed,
      pytorch_seed: c.seed,
      random_seed: c.seed,
      train_data_path: c.split_dir(0) + '/train.txt',
      trainer: {
        callbacks: [{ type: 'fewshot_random_state' }],
        checkpointer: { keep_most_recent_by_count: 1 },
        cuda_device: -1,
        grad_norm: 5,
        num_epochs: s.pretraining_trainer_num_epochs,
        optimizer: { type: 'adam', lr: 0.002 },
      },
      validation_data_loader: validation_data_loader,
    },
    pytorch_seed: c.seed,
    random_seed: c.seed,
    teaching_shot: shot,  // the shot this config's fine-tuning is for: the archive's recipe for it
    test_data_path: c.query,
    train_data_path: c.support,
    trainer: {
      callbacks: [{ type: 'fewshot_random_state' }],
      checkpointer: { keep_most_recent_by_count: 1 },
      cuda_device: -1,
      grad_norm: 5,
      num_epochs: s.trainer_num_epochs,
      optimizer: { type: 'adam', lr: s.trainer_optimizer_lr },
    },
    validation_data_loader: validation_data_loader,
  }
