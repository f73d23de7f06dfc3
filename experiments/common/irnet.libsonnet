// The IRNet baseline as the paper adapts it: IRNet's schema encoding (schema linking of predicate
// names to utterance words, predicate encodings from their names) added to our base parser, which
// is trained as a plain supervised parser (no meta batches, prototypes, attention regularization or
// smoothing), in the pt / cb / os settings of settings.libsonnet. Sizes and optimiser as ProtoParser.
local pp = import 'proto_parser.libsonnet';
local fewshot = import 'fewshot.libsonnet';
local settings = import 'settings.libsonnet';
local words = import 'words.libsonnet';

{
  system:: {
    name: 'irnet',
    batch_size: 64,
    epochs(dataset):: fewshot.defaults.epochs[dataset],
    // Utterance words (`pp.words.<option>`). Predicate names are embedded with the `tokens` word
    // table, so options without one (static, contextual) get a random table beside them.
    words:: pp.words.random,
    reader(dataset):: pp.reader(dataset, words=words.with_word_table(self.words)),
    model(dataset, finetuning):: pp.model(
      words=words.with_word_table(self.words),
      dropout=if finetuning then fewshot.defaults.finetune_dropout else 0.5,
      label_smoothing=if finetuning then fewshot.defaults.finetune_label_smoothing else 0.1,
    ) + { action_scorers: [{ type: 'schema_encoding' }] },
    trainer(epochs, lr):: pp.trainer(epochs, if lr == null then 0.0025 else lr) + { run_confidence_checks: false },
  },

  // One complete experiment for a dataset, shot and setting ('pt', 'cb' or 'os').
  experiment(dataset, shot, setting):: settings.experiment($.system, dataset, shot, setting),

  // The same with other utterance words (`pp.words.<option>`), pre-trained under its own name.
  with_words(option, name):: words.with_words($, option, name),
}
