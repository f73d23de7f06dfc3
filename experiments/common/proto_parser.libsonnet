// Building blocks for ProtoParser experiments. Sizes and optimiser follow the authors' run
// scripts (../shared/reference.md): Adam lr 0.0025, batch 64, dropout 0.5, LSTM size 256,
// word embeddings 200, action embeddings 128, label smoothing 0.1.
local data = import 'data.libsonnet';

{
  // Template normalization is learned from the training file of the dataset (identical in
  // every split), so every experiment of a dataset shares the same action inventory.
  reader(dataset, min_support=5, completeness=1.0, unify_slots=false):: {
    type: data.reader_type(dataset),
    idiom_source: data.train(dataset, 1, 0),
    min_support: min_support,
    completeness: completeness,
    unify_slots: unify_slots,
  },

  model(embedding_dim=200, hidden_dim=256, action_dim=128, dropout=0.5, label_smoothing=0.1, smoothing_k=0):: {
    type: 'proto_parser',
    source_embedder: { token_embedders: { tokens: { type: 'embedding', embedding_dim: embedding_dim } } },
    encoder: { type: 'lstm', input_size: embedding_dim, hidden_size: hidden_dim / 2, bidirectional: true },
    action_dim: action_dim,
    decoder_dim: hidden_dim,
    dropout: dropout,
    label_smoothing: label_smoothing,
    smoothing_k: smoothing_k,
    max_decoding_steps: 50,
  },

  trainer(epochs, lr=0.0025, decay_after=20, decay=0.985):: {
    num_epochs: epochs,
    optimizer: { type: 'adam', lr: lr },
    // lr decays by `decay` per epoch after `decay_after` epochs (the authors' schedule).
    learning_rate_scheduler: { type: 'fewshot_delayed_exponential', start_epoch: decay_after, gamma: decay },
    grad_norm: 5.0,
    cuda_device: -1,
    checkpointer: { keep_most_recent_by_count: 1 },
  },

  // Supervised training on train.txt, evaluated on `validation` (used by the sanity benchmark).
  supervised(dataset, train, validation, epochs, seed=data.seed):: data.seeds(seed) {
    dataset_reader: $.reader(dataset),
    train_data_path: train,
    validation_data_path: validation,
    model: $.model(),
    data_loader: { batch_size: 64, shuffle: true },
    validation_data_loader: { batch_size: 128, shuffle: false },
    trainer: $.trainer(epochs) + { validation_metric: '+exact_match' },
  },
}
