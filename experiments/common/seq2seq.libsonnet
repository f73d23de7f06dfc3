// The Seq2Seq baseline: allennlp-models' simple_seq2seq (BiLSTM encoder, LSTM decoder with
// Luong-style dot-product attention) over LF tokens, as in the paper's comparison.
local data = import 'data.libsonnet';

{
  // A complete `allennlp train` config for one dataset, shot and data setting ('cb' or 'os').
  experiment(dataset, shot, setting, split=data.split, seed=data.seed, epochs=60):: data.seeds(seed) {
    dataset_reader: {
      type: 'fewshot_seq2seq',
      formalism: data.formalism(dataset),
      source_token_indexers: { tokens: { type: 'single_id', namespace: 'source_tokens' } },
      target_token_indexers: { tokens: { type: 'single_id', namespace: 'target_tokens' } },
    },
    train_data_path: data.combined(dataset, shot, split, oversample=(setting == 'os')),
    test_data_path: data.query(dataset, shot, split),
    evaluate_on_test: true,
    model: {
      type: 'fewshot_seq2seq',
      source_embedder: { token_embedders: { tokens: { type: 'embedding', vocab_namespace: 'source_tokens', embedding_dim: 200 } } },
      encoder: { type: 'lstm', input_size: 200, hidden_size: 128, bidirectional: true, num_layers: 1 },
      attention: { type: 'dot_product' },
      target_namespace: 'target_tokens',
      target_embedding_dim: 128,
      beam_search: { beam_size: 1, max_steps: 100 },
      use_bleu: false,
    },
    data_loader: { batch_size: 32, shuffle: true },
    validation_data_loader: { batch_size: 64, shuffle: false },
    trainer: {
      num_epochs: epochs,
      optimizer: { type: 'adam', lr: 0.002 },
      grad_norm: 5.0,
      cuda_device: -1,
      checkpointer: { keep_most_recent_by_count: 1 },
    },
  },
}
