// The DA baseline (Li et al. 2020, "Domain Adaptation for Semantic Parsing"): our Coarse2Fine with
// domain-general sketches (only the operators stay; the fine stage names the predicates), a domain
// discriminator (gradient reversal) and domain relevance attention, trained jointly on the
// source domain (train.txt) and the target domain (the split's support set), as the authors train
// on source and target data together; evaluated on the query set. Same sizes as Coarse2Fine.
local c2f = import 'coarse2fine.libsonnet';
local settings = import 'settings.libsonnet';
local words = import 'words.libsonnet';

{
  system:: c2f.system {
    name: 'da',
    reader(dataset):: super.reader(dataset) { domain_labels: true, abstract_predicates: true },
    model(dataset, finetuning):: super.model(dataset, finetuning) {
      type: 'da_coarse2fine',
      predicate_slots: true,
      fine_encoder: super.encoder,
      fine_domain_loss_weight: 0.2,
      domain_loss_weight: 0.4,
      coarse_relevance_scale: 60.0,
      fine_relevance_scale: 2.0,
    },
    trainer(epochs, lr):: super.trainer(epochs, lr) { callbacks: [{ type: 'fewshot_domain_statistics' }] },
  },

  // Train + support, jointly (the cb data; the support set is the target domain).
  experiment(dataset, shot):: settings.experiment($.system, dataset, shot, 'cb'),

  // The same with other utterance words (`pp.words.<option>`).
  with_words(option, name):: words.with_words($, option, name),
}
