// Coarse2Fine baseline, setting cb: train on train + support (os: an override in systems.jsonnet).
// Dataset and shot: arguments, by default $FEWSHOT_DATASET and $FEWSHOT_SHOT (common.libsonnet).
function(dataset=std.extVar('FEWSHOT_DATASET'), shot=std.parseInt(std.extVar('FEWSHOT_SHOT')))
  local c = (import 'common.libsonnet').cell(dataset, shot);
  // Per dataset: [jobs, geo, atis]; c.shots(1-shot, 2-shot) where the shots differ.
  local s = {
    dataset_reader_formalism: c.pick(['prolog', 'lambda', 'lambda']),
    trainer_num_epochs:       c.pick([60, 60, 30]),
  };
  {
    data_loader: { batch_size: 32, shuffle: true },
    dataset_reader: { type: 'fewshot_coarse2fine', formalism: s.dataset_reader_formalism },
    datasets_for_vocab_creation: ['train'],
    evaluate_on_test: true,
    model: {
      type: 'coarse2fine',
      dropout: 0.3,
      encoder: { type: 'lstm', bidirectional: true, hidden_size: 128, input_size: 200 },
      max_sketch_steps: 100,
      sketch_embedding_dim: 128,
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
      num_epochs: s.trainer_num_epochs,
      optimizer: { type: 'adam', lr: 0.002 },
    },
    validation_data_loader: { batch_size: 64, shuffle: false },
  }
