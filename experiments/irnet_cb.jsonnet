// IRNet baseline, setting cb: train on train + support (os: an override in systems.jsonnet).
// Dataset and shot: arguments, by default $FEWSHOT_DATASET and $FEWSHOT_SHOT (common.libsonnet).
function(dataset=std.extVar('FEWSHOT_DATASET'), shot=std.parseInt(std.extVar('FEWSHOT_SHOT')))
  local c = (import 'common.libsonnet').cell(dataset, shot);
  // Per dataset: [jobs, geo, atis]; c.shots(1-shot, 2-shot) where the shots differ.
  local s = {
    dataset_reader_type: c.pick(['fewshot_jobs', 'fewshot_geoquery', 'fewshot_atis']),
    trainer_num_epochs:  c.pick([100, 100, 30]),
  };
  {
    data_loader: { batch_size: 64, shuffle: true },
    dataset_reader: {
      type: s.dataset_reader_type,
      completeness: 1,
      idiom_source: c.path(0, 1) + '/train.txt',
      min_support: 5,
      token_indexers: { tokens: { type: 'single_id' } },
      unify_slots: false,
    },
    datasets_for_vocab_creation: ['train'],
    evaluate_on_test: true,
    model: {
      type: 'proto_parser',
      action_dim: 128,
      action_scorers: [{ type: 'schema_encoding' }],
      decoder_dim: 256,
      dropout: 0.5,
      encoder: { type: 'lstm', bidirectional: true, hidden_size: 128, input_size: 200 },
      label_smoothing: 0.1,
      max_decoding_steps: 50,
      smoothing_k: 0,
      source_embedder: { token_embedders: { tokens: { type: 'embedding', embedding_dim: 200 } } },
    },
    numpy_seed: c.seed,
    pytorch_seed: c.seed,
    random_seed: c.seed,
    test_data_path: c.query,
    train_data_path: c.train + '+' + c.support,
    trainer: {
      callbacks: [{ type: 'fewshot_random_state' }],
      checkpointer: { keep_most_recent_by_count: 1 },
      cuda_device: -1,
      grad_norm: 5,
      learning_rate_scheduler: { type: 'fewshot_delayed_exponential', gamma: 0.985, start_epoch: 20 },
      num_epochs: s.trainer_num_epochs,
      optimizer: { type: 'adam', lr: 0.0025 },
      run_confidence_checks: false,
    },
    validation_data_loader: { batch_size: 64, shuffle: false },
  }
