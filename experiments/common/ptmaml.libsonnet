// The PT-MAML baseline (Huang et al. 2018) as the paper adapts it: our base parser (no prototypes,
// attention regularization or smoothing) meta-trained with MAML on train.txt, where a pseudo-task is
// a template (one meta-support example, up to `queries` meta-test examples of the same template),
// then adapted to the split's support set by fine-tuning (the pt setting) and tested on its query
// set. Meta batches alternate with supervised batches, as in ProtoParser's pre-training, so that
// the base parser learns at the same speed; the inner loop is first-order.
local pp = import 'proto_parser.libsonnet';
local fewshot = import 'fewshot.libsonnet';
local settings = import 'settings.libsonnet';
local words = import 'words.libsonnet';

{
  maml:: {
    inner_lr: 0.01,
    inner_steps: 1,
    first_order: true,
    tasks: 10,     // pseudo-tasks (templates) per meta batch
    queries: 5,    // meta-test examples per task
  },

  system:: {
    name: 'ptmaml',
    batch_size: 64,
    epochs(dataset):: fewshot.defaults.epochs[dataset],
    // Utterance words (`pp.words.<option>`).
    words:: pp.words.random,
    reader(dataset):: pp.reader(dataset, words=self.words),
    loader(dataset):: {
      type: 'fewshot_episodes',
      meta_templates: $.maml.tasks,
      meta_queries_per_template: $.maml.queries,
    },
    model(dataset, finetuning):: pp.model(
      words=self.words,
      dropout=if finetuning then fewshot.defaults.finetune_dropout else 0.5,
      label_smoothing=if finetuning then fewshot.defaults.finetune_label_smoothing else 0.1,
    ),
    // Meta-training (lr null): the MAML trainer, whose optimizer is the outer loop; fine-tuning: plain.
    trainer(epochs, lr):: pp.trainer(epochs, if lr == null then 0.0025 else lr) + { run_confidence_checks: false } + (
      if lr == null then {
        type: 'fewshot_maml',
        inner_lr: $.maml.inner_lr,
        inner_steps: $.maml.inner_steps,
        first_order: $.maml.first_order,
      } else {}
    ),
  },

  experiment(dataset, shot):: settings.experiment($.system, dataset, shot, 'pt'),

  // The same with other utterance words (`pp.words.<option>`), meta-trained under its own name.
  with_words(option, name):: words.with_words($, option, name),
}
