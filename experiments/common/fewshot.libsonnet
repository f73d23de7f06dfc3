// Few-shot ProtoParser experiments: pre-training with predicate-dropout meta batches, pre-training
// smoothing and attention regularization, then prototype initialisation and fine-tuning on the
// support set of one split, evaluated on its query set. Hyper-parameters from the authors' run
// scripts (../shared/reference.md) unless a comment says otherwise.
local data = import 'data.libsonnet';
local pp = import 'proto_parser.libsonnet';
local words = import 'words.libsonnet';

{
  // Everything an ablation may change, with the faithful defaults.
  defaults:: {
    variant: 'ours',                 // names the shared pre-trained archive
    // Pre-training epochs: the authors' 100 / 100 / 80, except ATIS: 30 epochs here, to fit the
    // whole table into about an hour on a 2-core CPU (ATIS has 8x the training data).
    epochs: { jobs: 100, geo: 100, atis: 30 },
    regularization: { jobs: 0.01, geo: 1.0, atis: 1.0 },
    smoothing_k: 3,
    predicate_dropout: 0.5,
    meta_templates: 30,
    // Meta-test examples per template (authors: 15); 5 on ATIS for the same time budget.
    meta_queries_per_template: { jobs: 15, geo: 15, atis: 5 },
    supervised_batches: true,
    conditional_feature: true,
    similarity_feature: true,
    prototypes: true,
    min_support: 5,
    completeness: 1.0,
    // Typed slots (<v>, <e:ci>) as in the paper; true shares one action between a predicate's
    // variable and entity arguments (experiments/unified/).
    unify_slots: false,
    // false: one untyped entity slot (<e:entity>) whatever the atom's type, like the authors' `var`
    // (experiments/untyped/); the slot filler then copies any entity token of the utterance.
    typed_entities: true,
    // Fine-tuning learning-rate decay: per dataset and shot, the epoch after which the rate is
    // multiplied by 0.985 after every epoch (null: a constant rate, as the paper says nothing of it).
    finetune_lr_decay: null,
    // Steps the fine-tuned model may decode, per dataset and shot (a number for all of them).
    max_decoding_steps: 50,
    // Glorot (Xavier normal) initialisation of every matrix but the word vectors when pre-training
    // starts, as the authors' pre-training script does (training/callbacks/glorot.py); false keeps
    // PyTorch's and AllenNLP's initialisers (system `no-glorot` measures the faithful configs without it).
    glorot_init: false,
    // Word representations (`pp.words`: random, glove(file), static(), contextual()), whether a
    // BiLSTM runs over them, and whether the string-similarity feature also uses the shipped
    // predicate lexicon (fewshot_parser/resources/lexicons/<dataset>.json).
    words: pp.words.random,
    lstm: true,
    lexicon: false,
    // A lexicon entry of a predicate the split makes new (its train.txt never uses it) keeps only the
    // words of the predicate's name and of its support utterances (fewshot_parser/data/lexicons.py);
    // `lexicon_descriptions` is a JSON file the user writes (predicate -> words), used whole.
    // `handwritten_new_predicate_entries: true` keeps every hand-written word of the new predicates:
    // the shipped lexicons were written with the evaluation files in view, so this leaks evaluation
    // data, and exists only to reproduce rows made before (issue 52). Applies to the model and to
    // the recombination's `lexicon`.
    lexicon_descriptions: null,
    handwritten_new_predicate_entries: false,
    // Learning rate of a trained contextual encoder (`pp.words.contextual(true)`), smaller than the
    // parser's; null leaves the whole model on one learning rate.
    encoder_lr: null,
    // Lexical linking (not in the paper): action scores get a learned bonus from the attended words
    // whose strings name the action's predicates (see proto_parser's `lexical_linking`).
    lexical_linking: false,
    link_pooling: 'attention',
    // IRNet's schema encoding (not in the paper's ProtoParser): the action scorer `schema_encoding`
    // (fewshot_parser/modules/action_scorers/), so action scores also get a pointer score from the
    // encoding of the action's predicate names, and words get their schema-match type. Options without a `tokens` word table get a random one.
    schema_encoding: false,
    // Beam size of the fine-tuned model's template search (1: greedy, as the paper decodes). Decoding
    // only, so a variant that changes it shares the pre-trained archive of its `variant`.
    beam_size: 1,
    // Added to the decoding scores of the actions new to the pre-trained model (`new_action_bias` of
    // proto_parser; 0 as in the paper). Fine-tuned model only, so a variant shares its base's archive.
    new_action_bias: 0,
    // The four settings below are the model's decoding components (not in the paper;
    // fewshot_parser/modules/decoding/, see `decoding_components`).
    // Entity-coverage re-ranking (reranker `entity_coverage`): when the greedy LF misses an entity, decode
    // `beam` hypotheses and charge `weight` log-probability per utterance entity token an LF leaves
    // out. null decodes as the paper does. Fine-tuned model only, so a variant shares its base's archive.
    // Needs `beam_size` 1 (re-ranking starts from the greedy LF).
    entity_coverage: null,
    // Missing-evidence penalty (decoding scorer `missing_evidence`): at each
    // decoding step, a known action loses `weight` x the share of its training examples that had a word
    // the utterance lacks, for words almost always seen with it (share >= `share`, lift >= `lift`, at
    // least `min_count` examples; counted on the training set by `fewshot_evidence_statistics`). null
    // decodes as the paper does. Fine-tuned model only, so a variant shares its base's archive.
    missing_evidence: null,
    // Slot-type check (decoding scorer `slot_type_check`): at each decoding
    // step an action with an entity slot whose type no utterance word has (`<e:year>` without a `year0`)
    // loses `weight`. null decodes as the paper does. Fine-tuned model only, so a variant shares its
    // base's archive.
    slot_types: null,
    // Variable scoping (reranker `variable_scoping`): a decoded LF whose variables are ill-scoped (`$1`
    // bound and unused, `$0` used and unbound) gets its most probable well-scoped naming of the
    // variable slots. Decoding only.
    variable_scoping: false,
    // Whether the action distribution is normalised over the actions the stack can take, in training
    // and in decoding (the paper's Eq. 2). The authors' code scores every action: its training softmax
    // runs over the whole vocabulary, and its decoder drops an example whose best action cannot be
    // applied (docs/reproduction.md row 12; model option `restrict_training: false` and the reranker
    // `dead_ends`, modules/decoding/dead_ends.py; the faithful default, `authors`).
    // false for either needs the plain greedy parser (no schema encoding, coverage or beam).
    applicable_actions: { training: true, decoding: true },
    // Four more behaviours of the authors' code (docs/reproduction.md rows 7, 19, 22, 23), each with
    // the paper's reading as the default here and the authors' in `authors`:
    //   decoder: 'stack' (ours: input rows tied to the output rows, no input feeding) or 'authors'
    //     (input feeding, a separate 128-d input table, 256-d output rows; the model's
    //     `decoder: {type: 'authors'}`, modules/feeding_decoder.py);
    //   string_similarity: 'name' (the whole predicate name) or 'parts' (its `_` parts, expanded by
    //     the authors' part table; modules/predicate_parts.py);
    //   predicate_dropout_unit: 'predicate' (Algorithm 1) or 'action' (a Bernoulli draw per action row);
    //   meta_sampling: 'random' (30 random templates per meta batch), 'walk' (a shuffled pass over
    //     every template, a new one each epoch; data/data_loaders/template_walk.py) or 'continuing_walk'
    //     (the pass runs on across epochs, as the authors' does; data/data_loaders/continuing_walk.py;
    //     the faithful default, `restarting-walk` is 'walk' in the faithful row).
    // Each is an option of `proto_parser` (models/proto_parser.py) of the same name.
    decoder: 'stack',
    string_similarity: 'name',
    predicate_dropout_unit: 'predicate',
    meta_sampling: 'random',
    // How each loss term is normalised (docs/reproduction.md row 13): 'step', a mean over its steps
    // or slots (ours), or 'example', summed over each example's steps and averaged over the batch, as
    // the authors' code does (model option `loss_reduction`; grid system `step-loss` is ours in the
    // faithful row). Needs the plain greedy parser, like the switches above.
    loss_reduction: 'step',
    // Three details of the authors' decoder (docs/reproduction.md row 7, note 5), for `decoder: 'authors'`
    // (parameters `reduce_input`, `initial_state`, `bias` of the model's decoder; modules/reduce_input_decoder.py):
    //   reduce_input: 'states' (a REDUCE reads the mean of its children's decoder states, ours) or
    //     'inputs' (a linear map of the mean of its children's inputs and its own, the authors');
    //   decoder_init: 'mean' (h_0 from the mean encoder output, ours) or 'last_cells' (from the
    //     encoder's last memory cells, the authors');
    //   decoder_bias: true (the maps to the attentional vector and of a REDUCE have a bias, ours) or
    //     false (they have none, the authors'). System `our-decoder-details` sets all three back to ours.
    reduce_input: 'states',
    decoder_init: 'mean',
    decoder_bias: true,
    // How entity slots are filled (docs/reproduction.md rows 16 and 36): 'copy', a copy of an utterance
    // position (ours), or 'classified', a choice among the entity values of the training and support
    // sets, the copy distribution serving as the slot's attention and its loss as the entity attention
    // loss, as the authors' code does (the model's `slot_variant: {type: 'classified_entities'}`,
    // modules/slot_variants/classified_entities.py, reader wrapper `fewshot_entity_values`; system
    // `copy-entities` is ours in the faithful row). Needs no unified slots.
    entity_slots: 'copy',
    // For classified entity slots: 'own', the slots' attention key and attentional map are their own
    // (ours), or 'decoder', they are the template decoder's, as the authors' entity steps read out
    // through the decoder's (the slot variant's `readout`; system `own-entity-readout` is ours in the
    // faithful row).
    entity_readout: 'own',
    // Where slot states come from (docs/reproduction.md note 3): 'ours', slot LSTMs started from the step's
    // attentional vector, reading the slot's type or position; 'authors', entity slots continue from the
    // decoder state of their step and variable slots form one chain per example, both reading out through
    // the decoder (the model's `slot_variant: {type: 'authors'}`, modules/slot_variants/authors_slots.py;
    // the faithful default, system `our-slot-states` is 'ours' in the faithful row). 'authors' needs the
    // authors' decoder and classified entity slots reading out through it.
    slot_states: 'ours',
    // Atoms that are entity slots wherever they occur, in the utterance or not (docs/reproduction.md
    // row 4, note 3): null (ours: an anonymized atom is a slot only when the utterance holds it, other
    // constants stay in the action), or an object from dataset to a regular expression of whole atoms,
    // as the authors' `is_lit` (reader wrapper `fewshot_literal_slots`; system `authors-literals`).
    // Needs classified entity slots, since a literal absent from the utterance cannot be copied.
    literal_slots: null,
    // Fine-tuning (reference.md): lr, epochs and lambda per dataset and shot.
    finetune: {
      jobs: { '1': { lr: 0.0005, epochs: 60, regularization: 0.001 }, '2': { lr: 0.0005, epochs: 60, regularization: 0.001 } },
      geo: { '1': { lr: 0.001, epochs: 20, regularization: 0.1 }, '2': { lr: 0.0005, epochs: 80, regularization: 0.1 } },
      atis: { '1': { lr: 0.0005, epochs: 40, regularization: 1.0 }, '2': { lr: 0.001, epochs: 30, regularization: 1.0 } },
    },
    // Replay (not in the paper): fine-tune on the support set repeated `repeat` times plus the
    // training set, for `epochs` epochs of `batch_size`, so that known predicates are not forgotten.
    // null fine-tunes on the support set alone, as the paper does.
    replay: null,
    finetune_dropout: 0.55,
    finetune_label_smoothing: 0.15,
    // Parameters (regexes over the model's parameter names) that fine-tuning leaves as pre-trained,
    // e.g. the utterance encoder; [] fine-tunes every parameter, as the paper does. The new action
    // rows (`action_embedding`) must stay trainable for prototype initialisation to be refined.
    finetune_frozen: [],
    // Supervised attention (the authors' `--sup_attention`, not in the paper): weight of the loss
    // that points the attention of each gold step at the words matching the action's symbols
    // (proto_parser's `supervised_attention`), in pre-training and per dataset in fine-tuning.
    supervised_attention: { pretraining: 0, finetune: { jobs: 0, geo: 0, atis: 0 } },
    // BiLSTM size per direction (null: half the decoder's 256) and where dropout applies (null: the
    // model's default, everywhere); see `authors` for the scripts' values.
    encoder_hidden: null,
    dropout_placement: null,
    // The attention regularizer also in the meta-test loss of predicate-dropout meta batches.
    meta_regularization: false,
    // Fine-tuning computes P(a | x) of the attention regularizer from the support set alone (false)
    // or from the training set and the support set (true, as the authors' preprocessing does).
    finetune_statistics_with_train: false,
    // How P(a | x) counts: 'presence' (each example once, the paper's count(a, x) / count(x)) or
    // 'occurrences' (every action occurrence times every word occurrence, normalised over actions, as
    // the authors' preprocessing does; training/callbacks/occurrence_statistics.py; system
    // `presence-counts` is the paper's count in the faithful row).
    conditional_counts: 'presence',
    // Whether the prototypes of new actions are computed without dropout ('eval', Eq. 3) or with it
    // ('train', as the authors' fine-tuning script computes them; training/callbacks/train_mode_prototypes.py,
    // system `eval-prototypes` is Eq. 3 in the faithful row).
    prototype_mode: 'eval',
    // Which words supervised attention points a step at: 'labels' (every label of the action, split at
    // `_`) or 'authors' (a REDUCE's head only, plus the authors' lexicon;
    // training/callbacks/authors_candidates.py, system `label-candidates` is ours in the faithful row).
    attention_candidates: 'labels',
    // Support-set recombination before fine-tuning (not in the paper; experiments/augmentation/):
    // null fine-tunes on the support set alone. Otherwise an object of
    //   pairs: forward synthetic pairs per new predicate (the new predicate in training templates),
    //   reverse_pairs: reverse pairs per new predicate (its support template, other known content),
    //   support_repeat: copies of each real support example (its weight against a synthetic pair),
    //   replay: training examples replayed beside them (a fixed seeded sample),
    //   lexicon: whether the shipped predicate lexicon helps find a predicate's words,
    //   balance: repeat the support examples of less-augmented new predicates to even them out,
    //   reshaped_pairs: pairs per new predicate with argument shapes its support set does not show
    //     (data/recombination/reshaped.py; 0, the default, makes none),
    //   reparented_pairs: pairs per new predicate under operators its support set does not put it
    //     under, `argmin` when it shows `argmax` (data/recombination/reparented.py; 0, the default, makes none),
    //   adjectives: reshaped pairs speak a new predicate its support shows only in a superlative with
    //     the superlative's adjective where they replace an adjective, "how high is r0"
    //     (data/recombination/adjectives.py),
    //   subtree_pairs: pairs per support example whose LF denotes an entity, placed whole where a
    //     template has an entity, "where is <the highest point in s0>" (data/recombination/subtrees.py;
    //     0 makes none),
    //   same_roles: forward pairs replace only a known predicate whose variables play the new
    //     predicate's roles (typed by another one-argument predicate or not; data/recombination/forward.py),
    //   epochs, batch_size: fine-tuning's (null: the dataset's usual ones; epochs may be per dataset/shot).
    // `allennlp augment-data <config> --split 0` prints the synthetic pairs of a split.
    augmentation: null,
    // Ensemble (not in the paper): fine-tune `size` copies of the model from the same pre-trained
    // archive, member i with seed FEWSHOT_SEED + i, and combine their LFs per example (`combine`:
    // 'vote', majority vote; models/ensemble.py). 1 is the single model and renders nothing new.
    ensemble: { size: 1, combine: 'vote' },
    // Retention in fine-tuning (not in the paper; issue 57; fewshot_parser/training/retention/): what
    // fine-tuning does to keep the known predicates, a list of `RetentionMethod` configs, e.g.
    // [{ type: 'replay', examples: 50 }, { type: 'distillation', weight: 1 }]; the others are
    // `anchoring` (L2-SP, or EWC with `fisher: true`) and `freezing` (only new action rows train).
    // [] fine-tunes as the paper does and renders nothing new. Fine-tuning only: a variant shares its
    // base's pre-trained archive (experiments/retention/).
    retention: [],
  },

  // What the authors' run scripts do beyond the paper's text (docs/reproduction.md has a row per
  // behaviour): the faithful configs and Table 2's ablations are `defaults + authors`. The options
  // beyond the paper (experiments/words, replay, unified, plus) keep `defaults`, which their
  // recorded rows were made with.
  authors:: {
    // GloVe 6B (the scripts' 200-d file is not available offline; the packaged 50-d vectors are).
    words: pp.words.glove(),
    // --sup_attention in every pre-training script and in geo's and ATIS's fine-tuning scripts.
    supervised_attention: { pretraining: 1, finetune: { jobs: 0, geo: 1, atis: 1 } },
    // ATIS pre-training as in the scripts: 80 epochs, 15 meta-test examples per template.
    epochs: { jobs: 100, geo: 100, atis: 80 },
    meta_queries_per_template: { jobs: 15, geo: 15, atis: 15 },
    // The encoder LSTM has hidden_size 256 per direction (its output is 512-d).
    encoder_hidden: 256,
    // Dropout only on the attentional vector h_t (model/few_shot_seq2seq.py applies it nowhere else),
    // 0.5 in pre-training; in fine-tuning 0.6, but 0.55 for ATIS 1-shot.
    dropout_placement: 'attentional',
    finetune_dropout: { jobs: 0.6, geo: 0.6, atis: { '1': 0.55, '2': 0.6 } },
    // Fine-tuning label smoothing 0.2 on geo and ATIS 2-shot, 0.15 elsewhere.
    finetune_label_smoothing: { jobs: 0.15, geo: 0.2, atis: { '1': 0.15, '2': 0.2 } },
    // Pre-training smoothing: the number of placeholder actions in the denominator, 3 / 6 / 6.
    smoothing_k: { jobs: 3, geo: 6, atis: 6 },
    // The attention regularizer is part of every loss of pre-training, meta batches included.
    meta_regularization: true,
    finetune_statistics_with_train: true,
    // One untyped entity slot, as the scripts' single `var` (docs/reproduction.md rows 4, 36).
    typed_entities: false,
    // fine_tune.sh decays the rate by 0.985 per epoch after epoch 60 of 80 on geo 2-shot and after 20
    // of 30 on ATIS 2-shot; the other columns stop before their decay would start.
    finetune_lr_decay: { jobs: null, geo: { '1': null, '2': 60 }, atis: { '1': null, '2': 20 } },
    // test.sh caps decoding at 15 steps on ATIS 1-shot, 50 elsewhere.
    max_decoding_steps: { jobs: 50, geo: 50, atis: { '1': 15, '2': 50 } },
    // dropout_few_shot_exp.py draws every matrix from xavier_normal before loading GloVe.
    glorot_init: true,
    // few_shot_seq2seq.py scores every action: the training softmax runs over the whole vocabulary,
    // and greedy decoding loses an example whose best action cannot be applied (row 12; the paper's
    // Eq. 2 normalises over the applicable actions, as system `applicable-only` does).
    applicable_actions: { training: false, decoding: false },
    // few_shot_seq2seq.py: input feeding, input table `ast_embed` apart from `action_embedding` (row 7).
    decoder: 'authors',
    // preprocess_data/utils.py get_predicate_tokens: names split at `_`, parts expanded (row 19).
    string_similarity: 'parts',
    // model/proto_dropout.py: one Bernoulli(0.5) draw per action row (row 23).
    predicate_dropout_unit: 'action',
    // components/dataset.py batch_iter: a shuffled pass over every template, 30 per meta batch, that runs
    // on across epochs (row 22, note 13; system `restarting-walk` starts a new pass each epoch).
    meta_sampling: 'continuing_walk',
    // dropout_few_shot_exp.py sums each loss term over an example's steps and averages over the batch
    // (row 13; the model option `loss_reduction`).
    loss_reduction: 'example',
    // preprocess_data/utils.py counts every (action occurrence, word occurrence) pair for P(a | x),
    // normalised over actions (row 18; training/callbacks/occurrence_statistics.py).
    conditional_counts: 'occurrences',
    // Supervised attention points a REDUCE at its head only, plus the authors' lexicon words (row 15;
    // training/callbacks/authors_candidates.py).
    attention_candidates: 'authors',
    // fine_tune.sh computes the prototypes with dropout on (row 34; training/callbacks/train_mode_prototypes.py).
    prototype_mode: 'train',
    // few_shot_seq2seq.py: a REDUCE reads a linear map of its children's inputs, and h_0 comes from the
    // encoder's last memory cells (row 7, note 5; modules/reduce_input_decoder.py).
    reduce_input: 'inputs',
    decoder_init: 'last_cells',
    // att_vec_linear and input_stack_reduce_linear have no bias (row 7, note 5).
    decoder_bias: false,
    // Entity slots name one of the entity values of the training and support sets, with the entity
    // attention loss on the copy distribution (rows 16 and 36; modules/slot_variants/classified_entities.py).
    entity_slots: 'classified',
    // Their entity steps attend with the decoder's key and read out through its att_vec_linear and
    // dropout (rows 16, 36; the slot variant's `readout`).
    entity_readout: 'decoder',
    // few_shot_seq2seq.py: an entity slot's LSTM continues from the decoder state of its step, the
    // variable slots of an example form one chain, both read out through the decoder (note 3;
    // modules/slot_variants/authors_slots.py; system `our-slot-states` gives them our slot LSTMs).
    slot_states: 'authors',
  },

  // The callback that gives the model P(a | x) before training, as `conditional_counts` says.
  statistics_callback(s):: (
    assert std.member(['presence', 'occurrences'], s.conditional_counts) :
      'conditional_counts must be \'presence\' or \'occurrences\', not ' + s.conditional_counts;
    { type: if s.conditional_counts == 'presence' then 'fewshot_alignment_statistics' else 'fewshot_occurrence_statistics' }
  ),

  // The callback that initialises new actions from their prototypes, as `prototype_mode` says.
  prototype_callback(s):: (
    assert std.member(['eval', 'train'], s.prototype_mode) :
      'prototype_mode must be \'eval\' or \'train\', not ' + s.prototype_mode;
    { type: if s.prototype_mode == 'eval' then 'fewshot_prototype_init' else 'fewshot_prototype_init_train_mode' }
  ),

  // The callbacks that replace supervised attention's candidate words, as `attention_candidates` says.
  candidates_callback(s):: (
    assert std.member(['labels', 'authors'], s.attention_candidates) :
      'attention_candidates must be \'labels\' or \'authors\', not ' + s.attention_candidates;
    if s.attention_candidates == 'labels' then [] else [{ type: 'fewshot_authors_attention_candidates' }]
  ),

  // The word option an experiment's reader and model use.
  words_of(s):: if s.schema_encoding then words.with_word_table(s.words) else s.words,

  // A setting given either as one value or per dataset (and shot): `{ geo: 6, ... }`, `{ geo: { '1': 0.2 } }`.
  per(value, dataset, shot=null):: (
    local v = if std.isObject(value) then value[dataset] else value;
    if std.isObject(v) then v[std.toString(shot)] else v
  ),

  model(dataset, s, pretraining):: pp.model(
    dropout=if pretraining then 0.5 else $.per(s.finetune_dropout, dataset, $.shot_of(s)),
    label_smoothing=if pretraining then 0.1 else $.per(s.finetune_label_smoothing, dataset, $.shot_of(s)),
    smoothing_k=if pretraining then $.per(s.smoothing_k, dataset) else 0,  // smoothing only in pre-training (Eq. 7)
    words=$.words_of(s),
    lstm=s.lstm,
    encoder_hidden=s.encoder_hidden,
    dropout_placement=s.dropout_placement,
  ) + (if s.schema_encoding then { action_scorers: [{ type: 'schema_encoding' }] } else {})
    + (if s.beam_size != 1 && !pretraining then { beam_size: s.beam_size } else {})
    + (local steps = $.per(s.max_decoding_steps, dataset, $.shot_of(s));
       if steps != 50 && !pretraining then { max_decoding_steps: steps } else {})
    + (if s.new_action_bias != 0 && !pretraining then { new_action_bias: s.new_action_bias } else {})
    + (if pretraining then {} else $.decoding_components(s))
    + (local a = s.applicable_actions;
       local paper = { similarity: 'name', predicate_dropout_unit: 'predicate' };
       local chosen = { similarity: s.string_similarity, predicate_dropout_unit: s.predicate_dropout_unit };
       local changed = { [k]: chosen[k] for k in std.objectFields(chosen) if chosen[k] != paper[k] };
       assert std.member(['step', 'example'], s.loss_reduction) : 'loss_reduction must be \'step\' or \'example\', not ' + s.loss_reduction;
       assert std.member(['stack', 'authors'], s.decoder) : 'decoder must be \'stack\' or \'authors\', not ' + s.decoder;
       if a.training && a.decoding && changed == {} && s.decoder == 'stack' && s.loss_reduction == 'step' then {} else (
         assert !s.schema_encoding && s.entity_coverage == null && s.missing_evidence == null && s.slot_types == null && s.beam_size == 1 :
           'applicable_actions, decoder, string_similarity, predicate_dropout_unit, loss_reduction: the authors\' behaviours are for the plain greedy proto_parser';
         changed
         + (if a.training then {} else { restrict_training: false })
         + (if a.decoding then {} else { rerankers: [{ type: 'dead_ends' }] })
         + (if s.loss_reduction == 'example' then { loss_reduction: 'example' } else {})
         + (if s.decoder == 'authors' then {
              action_dim: 256,
              decoder: { type: 'authors', reduce_input: s.reduce_input, initial_state: s.decoder_init, bias: s.decoder_bias },
            } else {})))
    + (local w = if pretraining then s.supervised_attention.pretraining else s.supervised_attention.finetune[dataset];
       if w != 0 then { supervised_attention: w } else {})
    + (if pretraining && s.meta_regularization then { meta_regularization: true } else {})
    + (assert std.member(['states', 'inputs'], s.reduce_input) : 'reduce_input must be \'states\' or \'inputs\', not ' + s.reduce_input;
       assert std.member(['mean', 'last_cells'], s.decoder_init) : 'decoder_init must be \'mean\' or \'last_cells\', not ' + s.decoder_init;
       assert std.isBoolean(s.decoder_bias) : 'decoder_bias must be true or false';
       assert s.decoder == 'authors' || (s.reduce_input == 'states' && s.decoder_init == 'mean' && s.decoder_bias) :
         'reduce_input, decoder_init and decoder_bias are details of the authors\' decoder: they need decoder \'authors\'';
       {})
    + (assert std.member(['copy', 'classified'], s.entity_slots) : 'entity_slots must be \'copy\' or \'classified\', not ' + s.entity_slots;
       assert std.member(['own', 'decoder'], s.entity_readout) : 'entity_readout must be \'own\' or \'decoder\', not ' + s.entity_readout;
       assert std.member(['ours', 'authors'], s.slot_states) : 'slot_states must be \'ours\' or \'authors\', not ' + s.slot_states;
       assert s.entity_slots == 'classified' || s.entity_readout == 'own' :
         'entity_readout \'decoder\' is for classified entity slots (entity_slots \'classified\')';
       assert s.slot_states == 'ours' || (s.entity_slots == 'classified' && s.entity_readout == 'decoder' && s.decoder == 'authors') :
         'slot_states \'authors\' needs classified entity slots reading out through the decoder (entity_readout \'decoder\') and decoder \'authors\'';
       assert s.entity_slots == 'copy' || !s.unify_slots : 'entity_slots \'classified\' needs typed or untyped slots, not unified ones';
       if s.entity_slots == 'copy' then {}
       else if s.slot_states == 'authors' then { slot_variant: { type: 'authors' } }
       else { slot_variant: { type: 'classified_entities', readout: s.entity_readout } }) + {
    lexicon: if s.lexicon then dataset else null,
    lexical_linking: s.lexical_linking,
    link_pooling: s.link_pooling,
    attention_regularization: if pretraining then s.regularization[dataset] else s.finetune[dataset][std.toString($.shot_of(s))].regularization,
    conditional_feature: s.conditional_feature,
    similarity_feature: s.similarity_feature,
    predicate_dropout: s.predicate_dropout,
  },

  // The fine-tuned model's decoding components (fewshot_parser/modules/decoding/): scorers whose terms
  // are added at each step of the template search, in this order, and rerankers of what it decoded.
  decoding_components(s):: (
    assert s.entity_coverage == null || s.beam_size == 1 : 'entity_coverage re-ranks the greedy LF: it needs beam_size 1';
    local scorers =
      (if s.slot_types == null then [] else [{ type: 'slot_type_check', weight: s.slot_types.weight }])
      + (if s.missing_evidence == null then [] else [{ type: 'missing_evidence', weight: s.missing_evidence.weight }
         + { [k]: s.missing_evidence[k] for k in ['share', 'lift', 'min_count', 'actions'] if std.objectHas(s.missing_evidence, k) }]);
    local rerankers =
      (if s.variable_scoping then [{ type: 'variable_scoping' }] else [])
      + (if s.entity_coverage == null then [] else [{ type: 'entity_coverage', weight: s.entity_coverage.weight, beam_size: s.entity_coverage.beam }]);
    (if scorers == [] then {} else { decoding_scorers: scorers }) + (if rerankers == [] then {} else { rerankers: rerankers })
  ),

  // The lexicon options of `defaults` that are set (nothing when both keep their defaults).
  lexicon_scope(s):: (
    assert std.isBoolean(s.handwritten_new_predicate_entries) : 'handwritten_new_predicate_entries must be true or false';
    (if s.lexicon_descriptions == null then {} else { lexicon_descriptions: s.lexicon_descriptions })
    + (if s.handwritten_new_predicate_entries then { handwritten_new_predicate_entries: true } else {})
  ),

  // The fine-tuned model's view of its split, for the lexicon: which predicates are new (those the
  // training file never uses) and the support utterances whose words they may keep. Pre-training
  // knows no new predicate, so its config (and archive) stays as it was.
  model_lexicon_scope(dataset, shot, split, s)::
    if !s.lexicon && s.lexicon_descriptions == null then {} else {
      lexicon_training_data: data.train(dataset, shot, split),
      lexicon_support_data: data.support(dataset, shot, split),
    } + $.lexicon_scope(s),

  // The optimizer parameter group that gives the word encoder (indexer `pieces`) its own learning rate.
  encoder_group(s):: {
    optimizer+: if s.encoder_lr == null then {} else {
      parameter_groups: [[['_source_embedder\\.token_embedder_pieces\\..*'], { lr: s.encoder_lr }]],
    },
  },

  // The fine-tuning optimizer's parameter groups: the encoder's learning rate and the frozen parameters.
  // AllenNLP rejects a parameter that matches both, so `finetune_frozen` must not name the encoder
  // when `encoder_lr` is set.
  finetune_optimizer(s, lr):: (
    local encoder = $.encoder_group(s).optimizer;
    local groups = std.get(encoder, 'parameter_groups', [])
                   + (if s.finetune_frozen == [] then [] else [[s.finetune_frozen, { requires_grad: false }]]);
    { type: 'adam', lr: lr } + (if groups == [] then {} else { parameter_groups: groups })
  ),

  shot_of(s):: if std.objectHas(s, 'shot') then s.shot else 1,

  // The fine-tuned model, or a `fewshot_ensemble` of `ensemble.size` copies of it (`combine` defaults to 'vote').
  ensemble_of(model, ensemble):: (
    local size = std.get(ensemble, 'size', 1);
    assert std.isNumber(size) && size >= 1 && std.floor(size) == size : 'ensemble.size must be a whole number of at least 1, not ' + size;
    if size == 1 then model
    else { type: 'fewshot_ensemble', members: [model for i in std.range(1, size)], combine: std.get(ensemble, 'combine', 'vote') }
  ),

  // A complete pre-training config (ordinary `allennlp train`).
  pretraining(dataset, s, seed=data.seed):: data.seeds(seed) {
    dataset_reader: $.entity_reader($.base_reader(dataset, s), s),
    train_data_path: data.train(dataset, 1, 0),
    model: $.model(dataset, s, true),
    data_loader: {
      type: (
        local types = { random: 'fewshot_episodes', walk: 'fewshot_template_walk', continuing_walk: 'fewshot_continuing_template_walk' };
        assert std.objectHas(types, s.meta_sampling) : 'meta_sampling must be one of ' + std.join(', ', std.objectFields(types)) + ', not ' + s.meta_sampling;
        types[s.meta_sampling]
      ),
      batch_size: 64,
      meta_templates: s.meta_templates,
      meta_queries_per_template: s.meta_queries_per_template[dataset],
      supervised_batches: s.supervised_batches,
    },
    trainer: pp.trainer(s.epochs[dataset]) + $.encoder_group(s) + {
      // fewshot_random_state: an interrupted pre-training resumes exactly (see ensure_pretrained).
      callbacks: (if s.glorot_init then [{ type: 'fewshot_glorot_init' }] else [])
                 + [$.statistics_callback(s), { type: 'fewshot_random_state' }] + $.candidates_callback(s),
      run_confidence_checks: false,
    },
  },

  // `reader`, wrapped by `fewshot_entity_values` when entity slots are classified (they need the values).
  entity_reader(reader, s):: if s.entity_slots == 'copy' then reader else { type: 'fewshot_entity_values', reader: reader },

  // The dataset's LF reader with the experiment's settings, wrapped by `fewshot_literal_slots` when
  // `literal_slots` names a pattern for `dataset` (pre-training and fine-tuning read alike).
  base_reader(dataset, s):: (
    local reader = pp.reader(dataset, s.min_support, s.completeness, s.unify_slots, $.words_of(s), s.typed_entities);
    local pattern = if s.literal_slots == null then null else std.get(s.literal_slots, dataset);
    if pattern == null then reader
    else (
      assert s.entity_slots == 'classified' : 'literal_slots needs entity_slots: classified';
      { type: 'fewshot_literal_slots', reader: reader, literal_pattern: pattern }
    )
  ),

  // The fine-tuning reader: the experiment's, wrapped by `fewshot_augmented` when `augmentation` is set.
  finetune_reader(dataset, shot, split, s):: $.entity_reader((
    local base = $.base_reader(dataset, s);
    local a = { pairs: 20, reverse_pairs: 10, support_repeat: 1, replay: 0, lexicon: false, balance: false, reshaped_pairs: 0, reparented_pairs: 0, adjectives: false, subtree_pairs: 0, same_roles: false }
              + (if s.augmentation == null then {} else s.augmentation);
    assert !a.adjectives || (a.reshaped_pairs > 0 && a.reparented_pairs == 0) : 'augmentation.adjectives needs reshaped_pairs > 0 and no reparented_pairs';
    assert a.subtree_pairs == 0 || (a.reshaped_pairs > 0 && a.reparented_pairs == 0) : 'augmentation.subtree_pairs needs reshaped_pairs > 0 and no reparented_pairs';
    if s.augmentation == null then base else {
      type: 'fewshot_augmented',
      reader: base,
      support_data_path: data.support(dataset, shot, split),
      training_data_path: data.train(dataset, shot, split),
      // Passes of pair generators (data/recombination/): forward and reverse pairs take turns per new
      // predicate, then each further kind of pair is a pass of its own.
      generators: [[{ type: 'forward', pairs_per_predicate: a.pairs } + (if a.same_roles then { same_roles: true } else {}), { type: 'reverse', pairs_per_predicate: a.reverse_pairs }]]
                  + (if a.reshaped_pairs > 0 then [[{ type: if a.adjectives then 'adjectives' else 'reshaped', pairs_per_predicate: a.reshaped_pairs }]] else [])
                  + (if a.reparented_pairs > 0 then [[{ type: 'reparented', pairs_per_predicate: a.reparented_pairs }]] else [])
                  + (if a.subtree_pairs > 0 then [[{ type: 'subtrees', pairs_per_example: a.subtree_pairs }]] else []),
      support_repeat: a.support_repeat,
      replay: a.replay,
      lexicon: if a.lexicon then dataset else null,
      seed: data.seed,
    } + (if a.balance then { balance: true } else {})
      + $.lexicon_scope(s)
  ), s),

  pretrained_archive(dataset, s)::
    std.extVar('FEWSHOT_PRETRAIN_DIR') + '/' + dataset + '-' + s.variant + '/model.tar.gz',

  // One complete experiment: (pre-train or reuse,) fine-tune on the split's support set, evaluate
  // on its query set. `settings` overrides `defaults`.
  experiment(dataset, shot, settings={}, split=data.split):: (
    local s = $.defaults + settings + { shot: shot };
    local k = std.get(s.ensemble, 'pretrainings', 1);
    assert std.isNumber(k) && k >= 1 && std.floor(k) == k : 'ensemble.pretrainings must be a whole number of at least 1, not ' + k;
    if k == 1 then $.one_pretraining(dataset, shot, s, split, data.seed, $.pretrained_archive(dataset, s))
    else $.pretrainings_ensemble(dataset, shot, s, split, k)
  ),

  // An ensemble over `ensemble.pretrainings` pre-trainings (not in the paper;
  // training/pretrainings_ensemble.py): part p is this experiment with pre-training and fine-tuning
  // seeds FEWSHOT_SEED + 10 p (its members FEWSHOT_SEED + 10 p + i), so part 0 is the usual
  // experiment and part p pre-trains `<dataset>-<variant>-seed<FEWSHOT_SEED + 10 p>`. Every part reads
  // the same support set and synthetic pairs (the augmentation keeps FEWSHOT_SEED), so all members
  // share one vocabulary. The top-level model is the vote of every part's members; the top-level
  // `pretrained_archive` is part 0's, which `run-grid` pre-trains first.
  pretrainings_ensemble(dataset, shot, s, split, k):: (
    local size = std.get(s.ensemble, 'size', 1);
    assert size <= 10 : 'ensemble.pretrainings needs ensemble.size of at most 10 (part p has seeds FEWSHOT_SEED + 10 p + i), not ' + size;
    local archive(p) = if p == 0 then $.pretrained_archive(dataset, s)
                       else std.extVar('FEWSHOT_PRETRAIN_DIR') + '/' + dataset + '-' + s.variant + '-seed' + (data.seed + 10 * p) + '/model.tar.gz';
    local parts = [$.one_pretraining(dataset, shot, s, split, data.seed + 10 * p, archive(p)) for p in std.range(0, k - 1)];
    local members(part) = if part.model.type == 'fewshot_ensemble' then part.model.members else [part.model];
    data.seeds(data.seed) {
      type: 'fewshot_pretrainings_ensemble',
      experiments: parts,
      pretrained_archive: parts[0].pretrained_archive,
      pretraining: parts[0].pretraining,
      dataset_reader: parts[0].dataset_reader,
      test_data_path: parts[0].test_data_path,
      evaluate_on_test: true,
      validation_data_loader: parts[0].validation_data_loader,
      model: { type: 'fewshot_ensemble', members: std.flattenArrays([members(part) for part in parts]),
               combine: std.get(s.ensemble, 'combine', 'vote') },
    }
  ),

  // One experiment from one pre-trained archive: pre-training and fine-tuning seed `seed`.
  one_pretraining(dataset, shot, s, split, seed, archive):: (
    local ft = s.finetune[dataset][std.toString(shot)];
    data.seeds(seed) {
      // An ensemble fine-tunes each member as this type would (training/ensemble_finetune.py).
      type: if std.get(s.ensemble, 'size', 1) == 1 then 'fewshot_pretrain_finetune' else 'fewshot_ensemble_finetune',
      pretrained_archive: archive,
      pretraining: $.pretraining(dataset, s, seed),
      initialize_new_actions: s.prototypes,
      finetune_seed: seed,
      dataset_reader: $.finetune_reader(dataset, shot, split, s),
      train_data_path: if s.replay == null then data.support(dataset, shot, split)
                       else data.support(dataset, shot, split) + '*' + s.replay.repeat + '+' + data.train(dataset, shot, split),
      test_data_path: data.query(dataset, shot, split),
      evaluate_on_test: true,
      model: $.ensemble_of($.model(dataset, s, false) + $.model_lexicon_scope(dataset, shot, split, s), s.ensemble),
      // Batch 2 (ATIS 1-shot: 1), as the authors fine-tune.
      data_loader: {
        batch_size: if s.replay != null then s.replay.batch_size
                    else if s.augmentation != null && std.get(s.augmentation, 'batch_size') != null then s.augmentation.batch_size
                    else if dataset == 'atis' && shot == 1 then 1 else 2,
        shuffle: true,
      },
      validation_data_loader: { batch_size: 128, shuffle: false },
      trainer: {
        num_epochs: if s.replay != null then s.replay.epochs
                    else if s.augmentation != null && std.get(s.augmentation, 'epochs') != null then $.per(s.augmentation.epochs, dataset, shot)
                    else ft.epochs,
        optimizer: $.finetune_optimizer(s, ft.lr),
      } + (local decay = if s.finetune_lr_decay == null then null else $.per(s.finetune_lr_decay, dataset, shot);
           if decay == null then {} else {
             learning_rate_scheduler: { type: 'fewshot_delayed_exponential', start_epoch: decay, gamma: 0.985 },
           }) + {
        grad_norm: 5.0,
        cuda_device: -1,
        checkpointer: { keep_most_recent_by_count: 1 },
        // fewshot_random_state: `allennlp train --recover` of an interrupted fine-tuning resumes exactly.
        callbacks: [
          $.statistics_callback(s)
          + (if s.finetune_statistics_with_train then { extra_data_path: data.train(dataset, shot, split) } else {}),
          $.prototype_callback(s),
          { type: 'fewshot_random_state' },
        ] + $.candidates_callback(s)
          + (if s.missing_evidence == null then [] else [{ type: 'fewshot_evidence_statistics', data_path: data.train(dataset, shot, split) }]),
        run_confidence_checks: false,
      },
    } + (
      assert std.isArray(s.retention) : 'retention must be a list of retention methods, not ' + std.toString(s.retention);
      if s.retention == [] then {} else { retention: s.retention }
    )
  ),
}
